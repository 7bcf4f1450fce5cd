import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { listFiles, PackageManager } from '@vscode/vsce';
import { BUNDLES, listingProblems, MARKETPLACE_CATEGORIES, MAX_KEYWORDS, packageFiles, type Manifest } from '../../.ci/listing';

/* The manifest stays listable on the Marketplace and Open VSX (the rules they apply on upload
 * that vsce and ovsx do not check before it: .ci/listing.ts, which the release script runs on the
 * packed manifest too), and .vscodeignore keeps exactly what runs: vsce's own file walk, without
 * packaging, over the tree as a build leaves it. */

const root = join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest & Record<string, unknown>;

describe("the manifest's listing", () => {
  it('has every field a listing needs, in the form both registries take', () => {
    assert.deepEqual(listingProblems(manifest), []);
    assert.ok((manifest.keywords as string[]).length <= MAX_KEYWORDS);
    for (const category of manifest.categories as string[]) assert.ok(MARKETPLACE_CATEGORIES.includes(category), category);
  });

  it('names each field the registries would refuse, or the listing would lack', () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['a category of our own', { categories: ['Other', 'CRM'] }, /categories: CRM is not a Marketplace category/],
      ['no category', { categories: [] }, /categories: none/],
      ['31 keywords', { keywords: Array.from({ length: 31 }, (_, i) => `k${i}`) }, /keywords: 31, the Marketplace takes 30/],
      ['a keyword twice', { keywords: ['crm', 'CRM'] }, /keywords: one twice/],
      ['no qna', { qna: undefined }, /qna: missing/],
      ['a relative qna', { qna: 'issues' }, /qna: not an absolute http\(s\) address/],
      ['a pre-release version', { version: '1.0.0-beta.1' }, /version: 1\.0\.0-beta\.1 is not a release version/],
      ['an SVG icon', { icon: 'media/icon.svg' }, /icon: media\/icon\.svg is not a PNG/],
      ['a banner theme of neither kind', { galleryBanner: { color: '#0b3d91', theme: 'blue' } }, /galleryBanner\.theme: blue/],
      ['a bell in the description', { description: 'Helpdesk\u0007' }, /description: a control or invisible character/],
      ['a description over 2,048 characters', { description: 'x'.repeat(2049) }, /description: 2049 characters, Open VSX takes 2048/],
      ['no bugs address', { bugs: undefined }, /bugs: missing/],
      ['a price', { pricing: 'Paid' }, /pricing: Paid, not Free or Trial/],
    ];
    for (const [what, change, expected] of cases) {
      const problems = listingProblems({ ...manifest, ...change });
      assert.ok(
        problems.some((p) => expected.test(p)),
        `${what}: ${JSON.stringify(problems)}`,
      );
    }
    // The description may join emoji: Open VSX allows the zero-width joiner there.
    assert.deepEqual(listingProblems({ ...manifest, description: 'Helpdesk 👩\u200d💻' }), []);
  });
});

describe('the package', () => {
  // The tree as a clean clone after `npm run package` leaves it: every file git would commit, the
  // bundles, and what else a build or a developer leaves beside them.
  let tree: string;
  before(() => {
    tree = mkdtempSync(join(tmpdir(), 'listing-'));
    const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
      .split('\0')
      .filter((f) => f !== '');
    for (const file of files) {
      mkdirSync(dirname(join(tree, file)), { recursive: true });
      cpSync(join(root, file), join(tree, file));
    }
    const leftovers = [
      ...BUNDLES,
      ...BUNDLES.map((b) => `${b}.map`),
      'out/unit/listing.test.js',
      'node_modules/ky/package.json',
      'l10n/bundle.l10n.json',
      'helpdesk-bridge-0.0.9.vsix',
      '.vscode-test/user-data/settings.json',
    ];
    for (const file of leftovers) {
      mkdirSync(dirname(join(tree, file)), { recursive: true });
      writeFileSync(join(tree, file), '// left by a build\n');
    }
  });
  after(() => rmSync(tree, { recursive: true, force: true }));

  /** What vsce would pack from the tree: its own walk with .vscodeignore, as `vsce ls` prints it. */
  const packed = async () => (await listFiles({ cwd: tree, packageManager: PackageManager.None })).sort();

  it('lets in exactly the bundles the checks expect: every dist/ file .vscodeignore keeps is one of BUNDLES, and each of them is kept', () => {
    const kept = readFileSync(join(root, '.vscodeignore'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('!dist/'))
      .map((line) => line.slice(1).trim());
    assert.deepEqual([...kept].sort(), [...BUNDLES].sort());
  });

  it('holds exactly the files the extension runs and the listing shows (vsce ls, .vscodeignore as it is)', async () => {
    const expected = packageFiles(tree, manifest);
    assert.deepEqual(await packed(), expected);
    // What the manifest names is there: the entry, both languages' walkthroughs, the Polish bundle.
    for (const file of [
      'dist/start.js',
      'media/icon.png',
      'media/walkthrough/signIn.md',
      'media/walkthrough/pl/signIn.md',
      'l10n/bundle.l10n.pl.json',
    ]) {
      assert.ok(expected.includes(file), file);
    }
    assert.equal(manifest.main, './dist/start.js');
  });

  it('is caught when .vscodeignore drops a file the extension needs or lets one in it does not', async () => {
    const ignoreFile = join(tree, '.vscodeignore');
    const kept = readFileSync(ignoreFile, 'utf8');
    try {
      writeFileSync(ignoreFile, kept.replace('!media/walkthrough/pl/*.md\n', '') + '!dist/*.map\n');
      const files = await packed();
      const expected = packageFiles(tree, manifest);
      assert.ok(!files.includes('media/walkthrough/pl/signIn.md'));
      assert.ok(files.includes('dist/extension.js.map'));
      assert.notDeepEqual(files, expected);
    } finally {
      writeFileSync(ignoreFile, kept);
    }
  });
});
