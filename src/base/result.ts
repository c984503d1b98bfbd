// The one outcome type: a call that may fail for a reason the caller must handle returns a Result
// and the caller branches on `ok` instead of catching. Errors default to a sentence for people;
// adapters use a coded error (sessions/types SessionError).

export type Result<T, E = string> = { ok: true; value: T } | { ok: false; error: E };

export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

export function err<E>(error: E): { ok: false; error: E } {
  return { ok: false, error };
}
