import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

/* Polish for every string a person reads: each message src/ passes to vscode.l10n.t, as
 * @vscode/l10n-dev exports them now (l10n/export.mjs, the script `npm run l10n` runs), and each
 * key of package.nls.json. A translation keeps the English's placeholders, codicons and links;
 * the Polish files hold nothing that is no longer used. */

const root = join(__dirname, '..', '..');

type Bundle = Record<string, string | { message: string; comment: string[] }>;

function readJson(file: string): Record<string, string> {
  return JSON.parse(readFileSync(join(root, file), 'utf8'));
}

/** The runtime strings, exported from src/ as it is now (l10n-dev parses every file: a few seconds). */
function exportedStrings(): Map<string, string> {
  const text = execFileSync(process.execPath, [join(root, 'l10n', 'export.mjs'), '--stdout'], { cwd: root, encoding: 'utf8' });
  const bundle = JSON.parse(text) as Bundle;
  // A message given with a comment (l10n.t({ message, comment })) is keyed "message/comment".
  return new Map(Object.entries(bundle).map(([key, value]) => [key, typeof value === 'string' ? value : value.message]));
}

/** The exported keys (each once: a message l10n.t gives in several places is one key). */
let exported: Map<string, string> | undefined;
function bundleKeys(): Map<string, string> {
  return (exported ??= exportedStrings());
}

/** For each English message with plural forms, the forms it has ("{0} comments/plural: few" is few of "{0} comments"). */
function pluralForms(keys: Map<string, string>): Map<string, Set<string>> {
  const forms = new Map<string, Set<string>>();
  for (const [key, message] of keys) {
    const form = /\/plural: (\w+)$/.exec(key)?.[1];
    if (!form) continue;
    if (!forms.has(message)) forms.set(message, new Set());
    forms.get(message)!.add(form);
  }
  return forms;
}

/** Each .ts file of src/ with its text. */
function sources(): [string, string][] {
  return readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((file) => [file, readFileSync(join(root, 'src', file), 'utf8')]);
}

/** What a translation must carry over unchanged, each kind as a sorted list of what the text has. */
const RUNTIME_MARKS = { placeholders: /\{\d+\}/g, codicons: /\$\([^)\s]*\)/g };
const MANIFEST_MARKS = {
  ...RUNTIME_MARKS,
  // {id}, {title}, {reference}: the templates' variables.
  placeholders: /\{[^}\s]*\}/g,
  'link targets': /\]\([^)\s]*\)/g,
  'setting links': /#[\w.]+#/g,
  'code spans': /`[^`]*`/g,
};

function marksOf(text: string, pattern: RegExp): string {
  return [...new Set(text.match(pattern) ?? [])].sort().join(' ');
}

/** Every key whose translation lacks a mark of its English or has one it does not, said with both. */
function differingMarks(english: Map<string, string>, polish: Record<string, string>, marks: Record<string, RegExp>): string[] {
  const found: string[] = [];
  for (const [key, text] of english) {
    const translated = polish[key];
    if (typeof translated !== 'string') continue;
    for (const [kind, pattern] of Object.entries(marks)) {
      const want = marksOf(text, pattern);
      const got = marksOf(translated, pattern);
      if (want !== got) found.push(`${JSON.stringify(key)}: ${kind} "${want}" in English, "${got}" in Polish`);
    }
  }
  return found;
}

function missing(english: Map<string, string>, polish: Record<string, string>): string[] {
  return [...english.keys()].filter((key) => typeof polish[key] !== 'string' || polish[key].trim() === '');
}

function unused(english: Map<string, string>, polish: Record<string, string>): string[] {
  return Object.keys(polish).filter((key) => !english.has(key));
}

/** Counts whose words take one form at any number in English and Polish ("5 z wczytanych zgłoszeń", "1 z…"). */
const COUNT_FREE = new Set(['wrote {0} of the loaded posts']);

/** Translations that are the English word for word, where Polish says it so too. */
const SAME_IN_POLISH = new Set([
  'lead',
  'Re: {0}',
  'status #{0}',
  'Status',
  'Status: {0} → {1}',
  'category',
  'container.title',
  'view.posts',
]);

function untranslated(english: Map<string, string>, polish: Record<string, string>): string[] {
  return [...english].filter(([key, text]) => polish[key] === text && !SAME_IN_POLISH.has(key)).map(([key]) => key);
}

describe('the Polish runtime strings (l10n/bundle.l10n.pl.json)', () => {
  const english = bundleKeys();
  const polish = readJson('l10n/bundle.l10n.pl.json');

  it('the export finds the strings of src/', () => {
    // l10n-dev finds none where it does not see the API's import (see l10n/export.mjs): nothing would be checked.
    assert.ok(english.size > 100, `${english.size} strings exported`);
  });

  it('every runtime string has a Polish translation', () => {
    assert.deepEqual(missing(english, polish), [], 'translate these in l10n/bundle.l10n.pl.json');
  });

  it('the Polish bundle has no string that src/ no longer uses', () => {
    assert.deepEqual(
      unused(english, polish),
      [],
      'remove these from l10n/bundle.l10n.pl.json (or translate the string that replaced them)',
    );
  });

  it('each translation has the placeholders ({0}…) and codicons ($(…)) of its English', () => {
    assert.deepEqual(differingMarks(english, polish, RUNTIME_MARKS), []);
  });

  it('no translation is the English left as it was', () => {
    assert.deepEqual(untranslated(english, polish), []);
  });

  it("a count's words come in every plural form Polish has: one, few, many and other, each a key of its own", () => {
    // plural() (src/text/plural.ts) picks one by Intl.PluralRules; a form missing here would be English in Polish.
    const forms = pluralForms(bundleKeys());
    const others = [...forms.values()].filter((f) => f.has('other')).length;
    const incomplete = [...forms].filter(([, has]) => has.has('other') && !(has.has('few') && has.has('many'))).map(([m]) => m);
    assert.deepEqual(incomplete, [], "give these the few and many forms (the English is the other form's)");
    assert.ok(others >= 20, `${others} counts with plural forms`);
    assert.equal([...forms.values()].filter((f) => f.has('one')).length, others, 'as many one forms as other forms');
    for (const key of bundleKeys().keys()) if (key.includes('/plural: ')) assert.equal(typeof polish[key], 'string', key);
  });

  it('each plural form in src/ is the l10n.t of its own name, with its comment a literal the export keeps', () => {
    const wrong: string[] = [];
    for (const [file, source] of sources()) {
      for (const call of source.matchAll(/\bl10n\.t\(\{[\s\S]*?comment:\s*('[^']*'|"[^"]*"|[^\s,}]+)/g)) {
        const before = source.slice(Math.max(0, call.index - 40), call.index);
        const name = /(\w+):\s*(?:vscode\.)?$/.exec(before)?.[1];
        if (call[1] !== `'plural: ${name}'` || !['one', 'few', 'many', 'other'].includes(name ?? ''))
          wrong.push(`src/${file}:${source.slice(0, call.index).split('\n').length} ${name}: ${call[1]}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('no message words a count by hand ("post(s)", "1 comment", "{0} posts"): plural() gives each its forms', () => {
    const counted =
      /\(s\)|^1 \w|\{\d\} (?:[\w-]+ ){0,3}(?:posts|comments|deals|clients|drafts|seconds|minutes|hours|pages|characters|words)\b|(?:every|within|all|first|the|of up to) \{\d\}(?: [\w-]+){0,2} (?:posts|clients|minutes|pages)\b/;
    const byHand = [...english]
      .filter(([key, text]) => !key.includes('/plural: ') && !COUNT_FREE.has(key) && counted.test(text))
      .map(([key]) => key);
    assert.deepEqual(byHand, []);
  });

  it('every l10n.t call in src/ gives its message as a literal, which the export can see', () => {
    // l10n.t(someVariable) is skipped by l10n-dev without a word: its text would never be translated.
    const calls: string[] = [];
    for (const file of readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'))) {
      const source = readFileSync(join(root, 'src', file), 'utf8');
      for (const match of source.matchAll(/\bl10n\.t\((?!\s*['"`{])/g)) {
        calls.push(`src/${file}:${source.slice(0, match.index).split('\n').length}`);
      }
    }
    assert.deepEqual(calls, []);
  });
});

describe('the Polish manifest (package.nls.pl.json)', () => {
  const english = new Map(Object.entries(readJson('package.nls.json')));
  const polish = readJson('package.nls.pl.json');

  it('every key of package.nls.json has a Polish translation', () => {
    assert.deepEqual(missing(english, polish), [], 'translate these in package.nls.pl.json');
  });

  it('package.nls.pl.json has no key that package.nls.json no longer has', () => {
    assert.deepEqual(unused(english, polish), []);
  });

  it('each translation has the placeholders, codicons, links, setting links and code spans of its English', () => {
    assert.deepEqual(differingMarks(english, polish, MANIFEST_MARKS), []);
  });

  it('no translation is the English left as it was', () => {
    assert.deepEqual(untranslated(english, polish), []);
  });
});

describe("the walkthrough's pages in Polish", () => {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const steps: { id: string; media: { markdown?: string } }[] = manifest.contributes.walkthroughs.flatMap(
    (w: { steps: unknown[] }) => w.steps,
  );
  const english = readJson('package.nls.json');
  const polish = readJson('package.nls.pl.json');
  /** A step's page in each language: VS Code replaces a manifest value "%key%" with the key's text in its display language. */
  const pages = steps.map((step) => {
    const key = /^%([\w.-]+)%$/.exec(step.media.markdown ?? '')?.[1];
    return { step: step.id, key, english: key && english[key], polish: key && polish[key] };
  });

  it('each step names its page through package.nls, with a Polish page of its own', () => {
    assert.ok(pages.length > 0);
    for (const page of pages) {
      assert.ok(page.key, `${page.step}: media.markdown is a %key% of package.nls.json`);
      assert.ok(page.english && existsSync(join(root, page.english)), `${page.step}: ${page.english}`);
      assert.ok(page.polish && page.polish !== page.english && existsSync(join(root, page.polish)), `${page.step}: ${page.polish}`);
    }
  });

  it("each Polish page keeps its English page's code spans and links", () => {
    const marks = { 'code spans': /`[^`]*`/g, 'link targets': /\]\([^)\s]*\)/g };
    const found: string[] = [];
    for (const { step, english: en, polish: pl } of pages) {
      if (!en || !pl) continue;
      const [enText, plText] = [en, pl].map((file) => readFileSync(join(root, file), 'utf8'));
      for (const [kind, pattern] of Object.entries(marks)) {
        if (marksOf(enText!, pattern) !== marksOf(plText!, pattern)) found.push(`${step}: ${kind} differ`);
      }
    }
    assert.deepEqual(found, []);
  });
});
