/**
 * Timings of the conversions for `npm run bench` (which pairs them against its baseline in the
 * same run): no assertions here, and none in the unit tests, which only guard against a hang.
 */
import { emailPage, type EmailPageOptions } from './toPage';
import { emailText, type EmailTextOptions } from './toText';

export interface ConversionTimings {
  /** The HTML's length in characters. */
  chars: number;
  /** The result's length: the text's, or the page HTML's. */
  resultChars: number;
  /** Each run's time in milliseconds, in the order they ran (the first is not a warm-up: the caller decides). */
  samplesMs: number[];
  medianMs: number;
  minMs: number;
}

/** Converts `html` to text (`page: false`, the default) or to page HTML `runs` times, and times each run. */
export function timeEmailConversion(
  html: string,
  runs = 20,
  options: { page?: boolean; text?: EmailTextOptions; pageOptions?: EmailPageOptions } = {},
): ConversionTimings {
  const convert = options.page ? () => emailPage(html, options.pageOptions).html : () => emailText(html, options.text).text;
  const samplesMs: number[] = [];
  let resultChars = 0;
  for (let i = 0; i < Math.max(1, Math.floor(runs)); i++) {
    const started = performance.now();
    resultChars = convert().length;
    samplesMs.push(performance.now() - started);
  }
  const sorted = [...samplesMs].sort((a, b) => a - b);
  return { chars: html.length, resultChars, samplesMs, medianMs: sorted[Math.floor(sorted.length / 2)]!, minMs: sorted[0]! };
}
