// Layering rules of src/, checked on the source text: only the account (src/api/account.ts) and the gateway talk to the API client.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import { describe, it } from 'node:test';

/** The API client's request machinery: only src/api/ (the account among it) and the gateway (src/accounts/gateway.ts) may import it. */
const MACHINERY_NAMES = ['HelpdeskClient', 'Transport', 'PostsApi', 'Resource'];
const MACHINERY_MODULES = ['src/api/client', 'src/api/http', 'src/api/posts', 'src/api/resource'];
const MAY_USE_MACHINERY = ['src/api/', 'src/accounts/gateway.ts'];

interface Import {
  from: string;
  /** The names it brings in by name. */
  names: string[];
  /** It brings in the whole module: `* as ns`, a default import, `export *`, `require(…)`. */
  whole: boolean;
  statement: string;
}

/** Every import of a module: `import … from`, `export … from`, `import x = require(…)`, `require(…)`, `import(…)`. */
function imports(code: string): Import[] {
  const found: Import[] = [];
  for (const m of code.matchAll(/\b(?:import|export)\s+(?:type\s+)?((?:(?!\b(?:import|export)\b)[^'";])*?)\s*from\s*['"]([^'"]+)['"]/g)) {
    const clause = m[1]!;
    const braces = /\{([^}]*)\}/.exec(clause);
    const names = braces
      ? braces[1]!
          .split(',')
          .map((part) =>
            part
              .trim()
              .replace(/^type\s+/, '')
              .split(/\s+as\s+/)[0]!
              .trim(),
          )
          .filter(Boolean)
      : [];
    found.push({ from: m[2]!, names, whole: !braces || /\*|^\s*\w+\s*,/.test(clause), statement: m[0] });
  }
  for (const m of code.matchAll(/\b(?:require|import)\s*\(\s*['"]([^'"]+)['"]\s*\)(?:\.(\w+))?/g)) {
    found.push({ from: m[1]!, names: m[2] ? [m[2]] : [], whole: !m[2], statement: m[0] });
  }
  return found;
}

/** Where a specifier points, as a repo path without extension (`src/api`), or the package name. */
function target(file: string, from: string): string {
  return from.startsWith('.')
    ? posix
        .join(posix.dirname(file), from)
        .replace(/\.(ts|js)$/, '')
        .replace(/\/index$/, '')
    : from;
}

/** The imports in `file` (a repo path such as `src/commands/x.ts`) that break the layering. */
function layerViolations(file: string, text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const problems: string[] = [];
  for (const { from, names, whole, statement } of imports(code)) {
    const to = target(file, from);
    if (file.startsWith('src/api/') && to === 'vscode') problems.push(`${file}: src/api/ must not import vscode: ${statement}`);
    if (MAY_USE_MACHINERY.some((dir) => file.startsWith(dir))) continue;
    const module = MACHINERY_MODULES.find((m) => to === m);
    const name = names.find((n) => MACHINERY_NAMES.includes(n));
    // A whole-module import of the API reaches the machinery as `ns.HelpdeskClient`, or passes it all on.
    const throughWhole =
      whole &&
      (to === 'src/api' || to.startsWith('src/api/')) &&
      (/^export/.test(statement) || MACHINERY_NAMES.some((n) => new RegExp(`\\.${n}\\b`).test(code)));
    if (module) problems.push(`${file}: imports ${module}: ${statement}`);
    else if (name) problems.push(`${file}: imports ${name}: ${statement}`);
    else if (throughWhole) problems.push(`${file}: reaches the API client through ${statement}`);
  }
  return problems;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

function srcFiles(): { file: string; text: string }[] {
  const root = process.cwd();
  const src = join(root, 'src');
  assert.ok(existsSync(join(src, 'api')), `no src/api/ under ${root}: run the unit tests from the repository root (npm run test:unit)`);
  return sourceFiles(src).map((path) => ({ file: relative(root, path).split(sep).join('/'), text: readFileSync(path, 'utf8') }));
}

/** The lines of src/ (comments left out) that match `pattern`, as `file: line`, in the files `checked` takes. */
function linesMatching(pattern: RegExp, checked: (file: string) => boolean): string[] {
  return srcFiles()
    .filter(({ file }) => checked(file))
    .flatMap(({ file, text }) =>
      text
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '')
        .split('\n')
        .filter((line) => pattern.test(line))
        .map((line) => `${file}: ${line.trim()}`),
    );
}

describe('layers', () => {
  it("outside src/api/ and the gateway, nothing imports the API client's request machinery", () => {
    const files = srcFiles().filter(({ file }) => !file.startsWith('src/api/'));
    assert.ok(files.some(({ file }) => file === 'src/accounts/gateway.ts') && files.length > 20, `only ${files.length} files found`);
    assert.deepEqual(
      files.flatMap(({ file, text }) => layerViolations(file, text)),
      [],
    );
  });

  it('src/api/ never imports vscode', () => {
    const api = srcFiles().filter(({ file }) => file.startsWith('src/api/'));
    assert.ok(api.length > 0);
    assert.deepEqual(
      api.flatMap(({ file, text }) => layerViolations(file, text)),
      [],
    );
  });

  it('the exactly-once protocol (src/drafts/filing.ts) reaches no vscode, through any import, types included', () => {
    const files = new Map(srcFiles().map((source) => [source.file.replace(/\.ts$/, '').replace(/\/index$/, ''), source]));
    const reached = new Map<string, string[]>([['src/drafts/filing', ['src/drafts/filing']]]);
    const problems: string[] = [];
    for (const [module, path] of reached) {
      const source = files.get(module);
      assert.ok(source, `${path.join(' -> ')}: no such source file`);
      for (const { from } of imports(source.text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, ''))) {
        const to = target(source.file, from);
        if (to === 'vscode') problems.push([...path, to].join(' -> '));
        else if (to.startsWith('src/') && !reached.has(to)) reached.set(to, [...path, to]);
      }
    }
    assert.ok(reached.has('src/drafts/draftRef') && reached.has('src/api'), `reached only ${[...reached.keys()].join(', ')}`);
    assert.deepEqual(problems, []);
  });

  it('data flows one way: the API and the account know no store, session, gateway or vscode; the store knows no gateway; commands/ (and the prompts they share) know no agent', () => {
    const below: Record<string, string[]> = {
      'src/api/': ['vscode', 'src/store', 'src/accounts'],
      'src/store/': ['src/accounts/gateway'],
      'src/commands/': ['src/agent'],
    };
    const problems = srcFiles().flatMap(({ file, text }) => {
      const banned = Object.entries(below).find(([dir]) => file.startsWith(dir))?.[1] ?? [];
      const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
      return imports(code)
        .filter(({ from }) => banned.some((b) => target(file, from) === b || target(file, from).startsWith(`${b}/`)))
        .map(({ statement }) => `${file}: ${statement}`);
    });
    assert.ok(
      srcFiles().some(({ file }) => file === 'src/api/account.ts'),
      'src/api/account.ts is there to check',
    );
    assert.deepEqual(problems, []);
  });

  it('one composition root: only src/extension.ts makes the parts, registers the views and loads code at run time', () => {
    const made =
      /\bnew (Session|Gateway|HelpdeskStore|Identity|DraftStore|DraftSender|NewsWatcher|NewsFolder|PostsTreeProvider|ClientsTreeProvider|PostDocumentProvider|BranchPosts)\(|\bcreateTreeView\(|\brequire\(\s*['"]\./;
    const problems = linesMatching(made, (file) => file !== 'src/extension.ts');
    const root = srcFiles().find(({ file }) => file === 'src/extension.ts');
    assert.ok(root && made.test(root.text), 'src/extension.ts makes the parts');
    assert.deepEqual(problems, []);
  });

  it('the entry (src/start.ts) holds none of the bundle: of src/ it imports only the code cache, which imports nothing of src/ or vscode; the rest is types', () => {
    const sources = new Map(srcFiles().map(({ file, text }) => [file, text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')]));
    const values = (file: string) =>
      imports(sources.get(file) ?? '')
        .filter(({ statement }) => !/^(?:import|export)\s+type\b/.test(statement))
        .map(({ from }) => target(file, from));
    assert.ok(sources.has('src/start.ts') && sources.has('src/codeCache.ts'), 'both are there to check');
    assert.deepEqual(
      values('src/start.ts').filter((to) => to.startsWith('src/') || to === 'vscode'),
      ['src/codeCache'],
    );
    assert.deepEqual(
      values('src/codeCache.ts').filter((to) => to.startsWith('src/') || to === 'vscode'),
      [],
    );
    assert.ok(
      imports(sources.get('src/start.ts')!).some(({ from, statement }) => from === './extension' && statement.startsWith('import type')),
      "the bundle's types",
    );
  });

  it('one window account: outside the gateway nothing reads the account or the store through the gateway, nor waits for the session itself', () => {
    const reaches = /\bgateway\??\.(account|store)\b|\.whenRestored\(|\baccountNow\b/;
    const problems = linesMatching(reaches, (file) => file !== 'src/accounts/gateway.ts' && file !== 'src/accounts/session.ts');
    assert.ok(
      reaches.test('await accountNow.now(); gateway.account') &&
        reaches.test('services.gateway.store.posts') &&
        !reaches.test('gateway.accountFor(url)'),
      'the check finds what it looks for',
    );
    assert.deepEqual(problems, []);
  });

  it('one door to the signed-in account: outside src/accounts/ and the composition root, nothing waits for the session, reads the window account, or reaches its store through it', () => {
    const reaches = /\.ready\(|\b(?:gateway|window)\??\.current\b|\.current\??\.(?:store|account|url)\b/;
    const problems = linesMatching(reaches, (file) => !file.startsWith('src/accounts/') && file !== 'src/extension.ts');
    assert.ok(
      ['await this.window.ready()', 'services.gateway.current?.account', 'const here = window.current;', 'x.current?.store.posts'].every(
        (line) => reaches.test(line),
      ) &&
        ['branchPosts.current?.postId', 'this.groups.current(node)', 'void drafts.ready.then(offer)'].every((line) => !reaches.test(line)),
      'the check finds what it looks for, and only that',
    );
    assert.ok(
      srcFiles().some(({ file }) => file === 'src/accounts/signedIn.ts'),
      'the door is there',
    );
    assert.deepEqual(problems, []);
  });

  it('the check finds what it looks for, and only that', () => {
    const flagged = (file: string, text: string) => layerViolations(file, text).length;
    assert.equal(flagged('src/commands/x.ts', "import { HelpdeskClient } from '../api';"), 1);
    assert.equal(flagged('src/views/x.ts', "import type {\n  Post,\n  Resource as R,\n} from '../api';"), 1);
    assert.equal(flagged('src/x.ts', "import type { Transport } from './api/http';"), 1);
    assert.equal(flagged('src/store/x.ts', "export { PostsApi } from '../api/posts';"), 1);
    assert.equal(flagged('src/store/x.ts', "import { something } from '../api/resource.js';"), 1);
    assert.equal(flagged('src/store/x.ts', "import * as api from '../api';\nlet c: api.HelpdeskClient;"), 1);
    assert.equal(flagged('src/store/x.ts', "type C = import('../api').HelpdeskClient;"), 1);
    assert.equal(flagged('src/store/x.ts', "import api, { Resource } from '../api';"), 1);
    assert.equal(flagged('src/store/x.ts', "export * from '../api';"), 1);
    assert.equal(flagged('src/store/x.ts', "export interface A { a: number }\nimport { HelpdeskClient } from '../api';"), 1);
    assert.equal(flagged('src/api/x.ts', "import vscode = require('vscode');"), 1);
    assert.equal(flagged('src/api/x.ts', "import type * as vscode from 'vscode';"), 1);
    // Allowed: the account, the gateway and the API itself, and the rest of the API's surface anywhere.
    assert.equal(flagged('src/api/account.ts', "import type { HelpdeskClient } from './client';"), 0);
    assert.equal(flagged('src/accounts/gateway.ts', "import { HelpdeskClient } from '../api';\nimport vscode = require('vscode');"), 0);
    assert.equal(flagged('src/api/x.ts', "import { Transport } from './http';"), 0);
    assert.equal(
      flagged('src/commands/x.ts', "import { isApiError, type Post, type WebResource } from '../api';\n// HelpdeskClient in a comment"),
      0,
    );
    assert.equal(flagged('src/store/x.ts', "import { isLastPage, type Page } from '../api/paging';"), 0);
  });
});
