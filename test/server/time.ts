/**
 * Date-times as the service writes them: ISO 8601 with milliseconds and an offset, e.g.
 * `2018-01-04T17:33:58.691+01:00` (service notes). The stand-in always uses the fixed offset +01:00.
 */

const OFFSET_MS = 60 * 60 * 1000;

/** Formats epoch milliseconds as `YYYY-MM-DDTHH:mm:ss.sss+01:00`. */
export function formatTime(epochMs: number): string {
  return new Date(epochMs + OFFSET_MS).toISOString().replace('Z', '+01:00');
}

/** Epoch milliseconds of an ISO date-time (any offset), or undefined when it is not one. */
export function parseTime(text: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?$/.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/** True for a real calendar date written `YYYY-MM-DD`. */
export function isPlainDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().startsWith(text);
}

/** A clock whose readings strictly increase, so that a bumped `updated_at` always changes. */
export class MonotonicClock {
  private last = 0;

  constructor(private readonly source: () => number = Date.now) {}

  /** Epoch milliseconds, at least 1 ms after the previous reading. */
  tick(): number {
    this.last = Math.max(this.source(), this.last + 1);
    return this.last;
  }

  /** Never go back before a time already handed out (after loading saved state). */
  advanceTo(epochMs: number): void {
    this.last = Math.max(this.last, epochMs);
  }

  now(): string {
    return formatTime(this.tick());
  }
}
