/**
 * Put in postcss's place in the e-mail bundle and the unit tests (esbuild.mjs): sanitize-html
 * requires postcss when it loads, to read `style` attributes, and toPage.ts allows none and sets
 * `parseStyleAttributes: false`, so it is never called. Left in, postcss and its source-map
 * reader were some 90 KB of the bundle. Called all the same, this throws, and sanitize-html then
 * drops the attribute it was reading.
 */
export function parse(): never {
  throw new Error('No CSS is read in e-mails (src/email/noPostcss.ts).');
}
