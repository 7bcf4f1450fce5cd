// Numbers, times of day, ages and the order of names in VS Code's display language (vscode.env.language), through Intl.
// Each formatter is made at its first use and kept: making one costs ICU set-up (milliseconds),
// formatting with it microseconds.
import vscode = require('vscode');

let locale: { language: string; tag: string } | undefined;

/** VS Code's display language as a tag Intl takes; English where Intl takes it not (a pseudo-language, say). */
export function displayLocale(): string {
  const language = vscode.env.language;
  if (locale?.language !== language) {
    let tag = 'en';
    try {
      tag = Intl.getCanonicalLocales(language)[0] ?? 'en';
    } catch {
      // Not a BCP 47 tag: English, as VS Code shows the strings it has no translation of.
    }
    locale = { language, tag };
  }
  return locale.tag;
}

/** `make` for the display language (or the one named), made once for each. */
export function kept<T>(make: (locale: string) => T): (named?: string) => T {
  const made = new Map<string, T>();
  return (named) => {
    const tag = named ?? displayLocale();
    let value = made.get(tag);
    if (value === undefined) made.set(tag, (value = make(tag)));
    return value;
  };
}

const numbers = kept((tag) => new Intl.NumberFormat(tag));
const times = kept((tag) => new Intl.DateTimeFormat(tag, { timeStyle: 'short' }));
const relative = kept((tag) => new Intl.RelativeTimeFormat(tag, { numeric: 'auto' }));
const dateTimes = kept((tag) => new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short' }));
const collators = kept((tag) => new Intl.Collator(tag, { sensitivity: 'base', numeric: true }));

/** The longest time stamp read (the service's are 29 characters: "2025-05-19T09:00:00.000+01:00"). */
const TIME_STAMP_CHARS = 40;

/** A number as the display language writes it: "12 345" and "2,5" in Polish. */
export function numberText(value: number): string {
  return numbers().format(value);
}

/** A time of day (ms since the epoch) as the display language writes it: "09:05" in Polish, "9:05 AM" in English. */
export function timeOfDay(ms: number): string {
  return times().format(ms);
}

/**
 * A time stamp the service sent as the display language writes a date and a time of day, in the
 * machine's zone: "14 kwi 2025, 10:07" in Polish, "Apr 14, 2025, 10:07 AM" in English; undefined
 * for what is no time.
 */
export function dateTimeText(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > TIME_STAMP_CHARS) return undefined;
  const at = Date.parse(value);
  return Number.isFinite(at) ? dateTimes().format(at) : undefined;
}

/**
 * Two names in the order the display language sorts them, case and accents aside where the
 * language takes them as such, numbers by value: in Polish "Czajka" before "Ćma" and "Sz" before
 * "Ś"; in English "Ćma" before "Czajka". The one order every sorted list of names uses.
 */
export function compareNames(a: string, b: string): number {
  return collators().compare(a, b);
}

const UNITS = [
  ['year', 31_536_000],
  ['month', 2_592_000],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
] as const;

/**
 * A time `seconds` from now (negative: past) in its largest whole unit, in the display language
 * or the one named: "3 minuty temu", "yesterday", "this minute" under a minute.
 */
export function relativeTime(seconds: number, named?: string): string {
  const format = relative(named);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(0, 'minute');
}
