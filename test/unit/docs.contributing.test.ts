// docs/contributing.md is true to the code where it names files: every path it names is there,
// and every folder of src/ is named in it (a room moved or added is said there).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const root = process.cwd();
const PAGE = 'docs/contributing.md';

/** The paths the page names in code spans: a span with a slash, or a file by its ending; not a pattern (`<verb>`), not a build output. */
function namedPaths(text: string): string[] {
  const spans = [...text.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!);
  return [
    ...new Set(
      spans
        .filter((span) => /\//.test(span) || /\.(?:ts|mjs|json|md)$/.test(span))
        .filter((span) => !span.includes('<') && !/^(?:dist|out)\//.test(span) && !span.startsWith('/')),
    ),
  ];
}

/** Every file of the tree by its name (a bare name in a table cell stands for a file of its row's folder). */
function fileNames(dir: string, names = new Set<string>()): Set<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory() && !['node_modules', 'out', 'dist', '.git', '.cache'].includes(entry.name))
      fileNames(join(dir, entry.name), names);
    else if (entry.isFile()) names.add(entry.name);
  }
  return names;
}

describe("the contributors' map (docs/contributing.md)", () => {
  const text = readFileSync(join(root, PAGE), 'utf8');

  it('names only paths that are there', () => {
    const named = namedPaths(text);
    assert.ok(named.length > 40 && named.includes('src/accounts/signedIn.ts'), `only ${named.length} paths found`);
    const files = fileNames(root);
    assert.deepEqual(
      named.filter((path) => (path.includes('/') ? !existsSync(join(root, path)) : !files.has(path))),
      [],
    );
  });

  it('names every folder of src/', () => {
    const folders = readdirSync(join(root, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `src/${entry.name}/`);
    assert.ok(folders.length > 10, `only ${folders.length} folders`);
    assert.deepEqual(
      folders.filter((folder) => !text.includes(`\`${folder}\``)),
      [],
    );
  });

  it('the check finds what it looks for, and only that', () => {
    assert.deepEqual(
      namedPaths('see `src/a.ts`, `package.json`, `src/commands/<verb>.ts`, `dist/mcp.js`, `helpdesk.reportBug`, `POST /x`'),
      ['src/a.ts', 'package.json'],
    );
  });
});
