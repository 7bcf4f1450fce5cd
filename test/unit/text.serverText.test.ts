import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { bodyText, labelText, pickText } from '../../src/text/serverText';
import { brokenText, fieldValue, hostileText, INVISIBLE, wellFormed } from './hostile';

const max = fc.integer({ min: 1, max: 200 });

describe('labelText', () => {
  it('drops bidi overrides, zero-width characters and line breaks', () => {
    assert.equal(labelText('invoice\u202Efdp.exe'), 'invoice fdp.exe');
    assert.equal(labelText('pass\u200Bword\u2060\uFEFF'), 'pass word');
    assert.equal(labelText('one\r\ntwo\u2028three\u0000four'), 'one two three four');
    assert.equal(labelText('\u061Cal\u180Eert\u00AD'), 'al ert');
  });

  it('keeps markup as text (escaping is up to where the label goes), but no [text](target) a notification would make a link of', () => {
    assert.equal(
      labelText('<script>alert(1)</script> [click](command:workbench.action.quit)'),
      '<script>alert(1)</script> [click] (command:workbench.action.quit)',
    );
    assert.equal(labelText('**bold** `code` [a]](b) ]('), '**bold** `code` [a]] (b) ] (');
  });

  it('cuts a 10,000-character title to the limit with an ellipsis', () => {
    const label = labelText('x'.repeat(10_000));
    assert.equal(label.length, 120);
    assert.ok(label.endsWith('…'));
  });

  it('does not cut an emoji in two', () => {
    assert.equal(labelText(`${'a'.repeat(118)}😀😀`), `${'a'.repeat(118)}…`);
    assert.equal(labelText(`${'a'.repeat(117)}😀😀`), `${'a'.repeat(117)}😀…`);
  });

  it('shows numbers and nothing for other types', () => {
    assert.equal(labelText(42), '42');
    for (const value of [null, undefined, true, {}, ['x'], { a: 1 }]) assert.equal(labelText(value), '');
  });

  it('property: never longer than max, one line, no invisible or bidi characters', () => {
    fc.assert(
      fc.property(fc.oneof(brokenText(300), fieldValue()), max, (value, limit) => {
        const label = labelText(value, limit);
        assert.ok(label.length <= limit, `${label.length} > ${limit}`);
        assert.ok(!INVISIBLE.test(label), JSON.stringify(label));
        assert.ok(!/\s\s|^\s|\s$/.test(label), 'whitespace collapsed and trimmed');
      }),
      { numRuns: 500 },
    );
  });

  it('property: never splits a surrogate pair', () => {
    fc.assert(
      fc.property(hostileText(200), max, (text, limit) => {
        assert.ok(wellFormed(labelText(text, limit)), JSON.stringify(labelText(text, limit)));
      }),
      { numRuns: 500 },
    );
  });

  it('property: idempotent; a cut label is a prefix of the whole one plus "…"', () => {
    fc.assert(
      fc.property(brokenText(200), max, (text, limit) => {
        const label = labelText(text, limit);
        assert.equal(labelText(label, limit), label);
        const whole = labelText(text, Infinity);
        if (whole.length <= limit) assert.equal(label, whole);
        else {
          assert.ok(label.endsWith('…'), label);
          assert.ok(whole.startsWith(label.slice(0, -1)), label);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('bodyText', () => {
  it('keeps line breaks and tabs, normalized; drops controls and bidi marks', () => {
    assert.equal(bodyText('a\r\nb\rc\td\u0000e\u202Ef\u200Bg'), 'a\nb\nc\tdefg');
    assert.equal(bodyText({ a: 1 }), '');
  });

  it('property: bounded, no carriage returns, controls or invisible characters, surrogates kept whole', () => {
    fc.assert(
      fc.property(fc.oneof(hostileText(400), fieldValue()), fc.integer({ min: 1, max: 300 }), (value, limit) => {
        const body = bodyText(value, limit);
        assert.ok(body.length <= limit, `${body.length} > ${limit}`);
        assert.ok(!INVISIBLE.test(body.replace(/[\n\t]/g, '')), JSON.stringify(body));
        assert.ok(wellFormed(body), JSON.stringify(body));
        assert.equal(bodyText(body, limit), body);
      }),
      { numRuns: 500 },
    );
  });
});

/** How VS Code finds a theme icon in a quick pick's label, description or detail (iconLabels.ts); a match with a backslash is shown as text. */
const ICON_IN_LABEL = /(\\)?\$\(([A-Za-z0-9-]+(?:~[A-Za-z]+)?)\)/g;
const renderedIcons = (text: string) => [...text.matchAll(ICON_IN_LABEL)].filter((m) => !m[1]).map((m) => m[2]);

describe('pickText', () => {
  it('a title such as $(loading~spin) or a deal named $(check) … is shown as text, not as an icon', () => {
    assert.deepEqual(renderedIcons(pickText('$(loading~spin)')), []);
    assert.deepEqual(renderedIcons(pickText('$(check) Free deal')), []);
    assert.equal(pickText('$(check) Free deal'), '\\$(check) Free deal');
    // Text the server escaped itself is shown as it sent it, backslash and all.
    assert.equal(pickText('\\$(zap)'), '\\\\$(zap)');
  });

  it('drops bidi overrides and line breaks, like labelText (a price of "12\u202E00\n5")', () => {
    assert.equal(pickText('12\u202E00\n5'), '12 00 5');
    assert.equal(pickText(1200.5), '1200.5');
  });

  it("property: no icon renders, and the text is labelText's but for the escapes", () => {
    fc.assert(
      fc.property(fc.oneof(brokenText(300), fieldValue()), max, (value, limit) => {
        const text = pickText(value, limit);
        assert.deepEqual(renderedIcons(text), [], JSON.stringify(text));
        // One backslash added before each icon-shaped $(…), and nothing else changed (a backslash the server sent stays).
        assert.equal(text.replace(/\\(\$\([A-Za-z0-9-]+(?:~[A-Za-z0-9-]*)?\))/g, '$1'), labelText(value, limit));
      }),
      { numRuns: 500 },
    );
  });
});
