export interface RetryOptions {
  /** Retries after the first attempt. */
  retries: number;
  baseDelayMs: number;
}

export class HttpError extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls fn, retrying failures with a growing delay. */
export async function withRetry<T>(fn: () => Promise<T>, options: RetryOptions): Promise<T> {
  let lastError: unknown;
  for (let attempt = 0; attempt <= options.retries; attempt++) {
    try {
      return await fn();
    } catch (error) {
      // Client errors will not succeed on a retry.
      if (error instanceof HttpError && error.status < 500) throw error;
      lastError = error;
      if (attempt < options.retries) await sleep(options.baseDelayMs * 2 ** attempt * (0.5 + Math.random() / 2));
    }
  }
  throw lastError;
}
