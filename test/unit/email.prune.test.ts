import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import render from 'dom-serializer';
import { isTag } from 'domhandler';
import fc from 'fast-check';
import { parseEmail } from '../../src/email/parse';
import { pruneEmail, QUOTE_TAG } from '../../src/email/prune';
import { emailText } from '../../src/email/toText';
import * as demo from '../server/demoEmails';

/*
 * A text that folds the quoted history away does not reduce what is inside it (in a long thread,
 * most of the message): `quotes: 'later'` leaves it for `pruneQuotes`, which makes the same tree
 * as reducing it at once.
 */

const reducedAtOnce = (html: string) => {
  const pruned = pruneEmail(parseEmail(html).root);
  return { html: render(pruned.root), quoted: pruned.quoted, textOutsideQuotes: pruned.textOutsideQuotes };
};
const reducedLater = (html: string) => {
  const pruned = pruneEmail(parseEmail(html).root, { quotes: 'later' });
  const flags = { quoted: pruned.quoted, textOutsideQuotes: pruned.textOutsideQuotes };
  pruned.pruneQuotes();
  pruned.pruneQuotes(); // once is enough; again changes nothing
  return { html: render(pruned.root), ...flags };
};

/** The tree as it is before the quoted history is reduced: what is inside a quote left out (of a tree made for this alone). */
const outsideQuotes = (root: ReturnType<typeof parseEmail>['root']) => {
  const stack = [...root.children];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isTag(node)) continue;
    if (node.name === QUOTE_TAG) node.children = [];
    else stack.push(...node.children);
  }
  return render(root);
};

const CORPUS: [string, string][] = [
  ...Object.entries(demo).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1].includes('<')),
  ['longThread', demo.longThread(30_000)],
  ['deepNesting', demo.deepNesting(20_000)],
];

/** Pieces of quoted history as mail clients mark it, hidden text, and plain markup. */
const PIECES = [
  '<blockquote type="cite">',
  '</blockquote>',
  '<div class="gmail_quote">',
  '<div class="yahoo_quoted">',
  '<div id="divRplyFwdMsg">',
  '<div class="moz-cite-prefix">',
  '<div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm"><p>From: Anna</p>',
  '<span style="display:none">',
  '<font color="#ffffff">',
  '<div class="gmail_signature">',
  '<img width="1" height="1" src="https://t.example/p.gif">',
  '<script>',
  '<p>',
  '</p>',
  '<div>',
  '</div>',
  '</span>',
  'words',
  ' Od: ',
];

describe('the quoted history reduced later', () => {
  it('the mail of the demo, hostile mail included: the same tree, and the same flags, as reduced at once', () => {
    for (const [name, html] of CORPUS) assert.deepEqual(reducedLater(html), reducedAtOnce(html), name);
  });

  it('random markup of quotes, dividers and hidden text: the same tree as reduced at once, and outside the quotes before', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }), (pieces) => {
        const html = pieces.join('');
        assert.deepEqual(reducedLater(html), reducedAtOnce(html), html);
        const atOnce = pruneEmail(parseEmail(html).root).root;
        assert.equal(outsideQuotes(pruneEmail(parseEmail(html).root, { quotes: 'later' }).root), outsideQuotes(atOnce), html);
      }),
      { numRuns: 400 },
    );
  });

  it('the text that shows the quoted history shows it reduced: kept with `> `, and a forward, nothing hidden in them', () => {
    const hidden = '<span style="display:none">SECRET</span>';
    assert.equal(emailText(`<p>Mine</p><blockquote type="cite">Old${hidden}</blockquote>`, { quoted: 'quote' }).text, 'Mine\n\n> Old');
    assert.equal(emailText(`<blockquote type="cite">Forwarded${hidden}</blockquote>`).text, '> Forwarded');
    assert.equal(
      emailText(`<p>Mine</p><div id="divRplyFwdMsg">From: Anna</div><p>Old${hidden}</p>`, { quoted: 'quote' }).text.includes('SECRET'),
      false,
    );
  });

  it('is not reduced until asked: hidden text inside the quoted tail stays in the tree, and outside it goes at once', () => {
    const html =
      '<p>Mine<span style="display:none">gone at once</span></p><div id="divRplyFwdMsg">From: Anna</div><p>Old<span style="display:none">left for later</span></p>';
    const pruned = pruneEmail(parseEmail(html).root, { quotes: 'later' });
    assert.equal(pruned.quoted, true);
    const before = render(pruned.root);
    assert.ok(!before.includes('gone at once'), before);
    assert.ok(before.includes('left for later'), before);
    pruned.pruneQuotes();
    assert.ok(!render(pruned.root).includes('left for later'));
  });
});
