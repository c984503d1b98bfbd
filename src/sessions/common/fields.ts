// Guards for one field of a parsed JSON record. Session files are written by many versions of an
// agent, so every adapter checks a field's type before it uses it; these are the three it needs most.

export function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** A plain object (not an array, not null), as a record of unknown fields. */
export function obj(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}
