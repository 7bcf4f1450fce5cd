// Arbitraries for the property tests: text and values a broken or hostile server might send.
import fc from 'fast-check';

/** Pieces that have broken renderers before: markup, command links, fences, invisible and bidi marks. */
const PIECES = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '[click](command:workbench.action.quit)',
  '<command:workbench.action.quit>',
  '$(zap)',
  '**',
  '_',
  '\\',
  '&lt;',
  '`',
  '``',
  '```',
  '````',
  '~~~',
  '# ',
  '- ',
  '> ',
  '    ',
  ' ',
  '\t',
  '\n',
  '\r',
  '\r\n',
  '\n\n',
  '\0',
  '\u001b[31m',
  '\u0085',
  '\u2028',
  '\u2029',
  // bidi marks, overrides and isolates
  '\u202e',
  '\u202d',
  '\u202a',
  '\u2066',
  '\u2067',
  '\u2069',
  '\u200e',
  '\u200f',
  '\u061c',
  // zero-width and other invisible format characters
  '\u200b',
  '\u200c',
  '\u200d',
  '\u2060',
  '\ufeff',
  '\u180e',
  '\u00ad',
  '\u206a',
  '\ufff9',
  // emoji and scripts
  '😀',
  '👨‍👩‍👧',
  '🇫🇷',
  'e\u0301',
  'مرحبا',
  'שלום',
  '漢字',
  'a',
  'word',
];

/** Text made of hostile pieces and any code points; no lone surrogates, so it is well formed. */
export function hostileText(maxLength = 30): fc.Arbitrary<string> {
  const unit = fc.oneof(fc.constantFrom(...PIECES), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }));
  return fc.string({ unit, maxLength });
}

/** Like `hostileText`, but any UTF-16 code unit may appear too, lone surrogates included. */
export function brokenText(maxLength = 30): fc.Arbitrary<string> {
  const unit = fc.oneof(
    fc.constantFrom(...PIECES),
    fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
  );
  return fc.string({ unit, maxLength });
}

/** Anything a JSON field could hold, hostile text weighted in. */
export function fieldValue(): fc.Arbitrary<unknown> {
  return fc.oneof(
    hostileText(),
    fc.jsonValue({ maxDepth: 2 }),
    fc.constantFrom(null, true, false, 0, -1, 1.5, Number.MAX_SAFE_INTEGER + 2),
  );
}

/** An id as a broken server might send it: mostly good, sometimes not a positive whole number. */
export function idValue(): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 1, max: 50 }) },
    { weight: 1, arbitrary: fc.constantFrom(0, -3, 1.5, Number.NaN, Infinity, 2 ** 60, '7', null, [], {}, true) },
  );
}

/** A record with the given field names, each absent, null, of the wrong type or hostile. */
export function hostileRecord(fields: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  const shape = Object.fromEntries(fields.map((name) => [name, fieldValue()]));
  return fc.record({ id: idValue(), ...shape }, { requiredKeys: [] });
}

/** Controls, bidi marks and invisible format characters: none may reach a label. */
export const INVISIBLE =
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/;

/** True when every high surrogate is followed by a low one and every low one follows a high one. */
export function wellFormed(text: string): boolean {
  return !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}
