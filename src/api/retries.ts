import { retryAfterSeconds } from './responseErrors';

/** Answers a GET is tried again after: too many requests, and a gateway or service that is down. */
export const RETRY_STATUSES = [429, 502, 503, 504];

export interface RetryPolicy {
  /** Retries after the first attempt. */
  limit: number;
  /** The first wait when the service names none; it doubles after that. */
  backoffMs: number;
  /** A longer Retry-After is not waited for. */
  maxRetryAfterSeconds: number;
}

/** One call's attempts so far, and when its deadline passes (`performance.now()` time). */
export interface Attempts {
  /** Attempts made, this one included. */
  count: number;
  deadlineAt: number;
  /** The wait decided on the latest answer; undefined when it is not tried again. */
  waitMs?: number;
}

/**
 * How long to wait before trying an answer's request again, or undefined when it is not tried
 * again: a write, another status, no retries left, a Retry-After past the cap or that says no
 * usable time ("Infinity"), or a wait that would outlast the call's deadline (the call then ends
 * with what the service said, at once, not later as a timeout). Decided here, as the answer
 * comes, so that the log and the rate-limit notice say the wait that really comes.
 */
export function retryWaitMs(method: string, response: Response, attempts: Attempts, policy: RetryPolicy): number | undefined {
  if (method !== 'GET' || !RETRY_STATUSES.includes(response.status) || attempts.count > policy.limit) return undefined;
  let waitMs = policy.backoffMs * 2 ** (attempts.count - 1);
  const header = response.status === 429 || response.status === 503 ? response.headers.get('retry-after') : null;
  if (header?.trim()) {
    const seconds = retryAfterSeconds(header);
    if (seconds === undefined || seconds > policy.maxRetryAfterSeconds) return undefined;
    waitMs = seconds * 1000;
  }
  return performance.now() + waitMs < attempts.deadlineAt ? waitMs : undefined;
}
