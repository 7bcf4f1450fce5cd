// Builds the extension's bundles and the test bundles.
//   node esbuild.mjs                 dist/extension.js, dist/email.js and dist/mcp.js (development: source maps)
//   node esbuild.mjs --production    the same, minified, no source maps
//   node esbuild.mjs --watch         rebuild the extension on change
//   node esbuild.mjs --unit          out/unit/*.test.js for node's test runner
//   node esbuild.mjs --server        out/server/sandbox.js (the stand-in server's CLI)
//   node esbuild.mjs --integration   out/integration/*.js (suite run inside VS Code, and its launchers)
//   node esbuild.mjs --ui            out/ui/run.js (UI tests: the .vsix in code-server, driven by Playwright)
//   node esbuild.mjs --bench         out/bench/*.js (the benchmark's launcher, and its suite run inside VS Code)
//   node esbuild.mjs --release       out/release/release.js (`npm run publish`: .ci/release.ts, see docs/releasing.md)
//   node esbuild.mjs --command-ids   only src/commandIds.ts and src/toolNames.ts (every run writes them first; `npm run typecheck` runs this)
import * as esbuild from 'esbuild';
import { readdirSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const args = new Set(process.argv.slice(2));
const production = args.has('--production');

/**
 * The manifest's names as types, so that tsc checks the tables that must match package.json:
 * src/commandIds.ts (contributes.commands) for the table of command handlers (src/extension.ts),
 * and src/toolNames.ts (contributes.languageModelTools) for the table of tool registrations
 * (src/agent/tools/registerTools.ts). A name contributed without its entry, or an entry for none,
 * fails the type check. Each file is written only when it changed.
 */
function writeManifestNames() {
  const { contributes } = JSON.parse(readFileSync('package.json', 'utf8'));
  const write = (file, section, type, names) => {
    const sorted = [...names].sort();
    const text = [
      `// Written by esbuild.mjs from package.json's contributes.${section}: do not edit.`,
      '',
      `export type ${type} =`,
      ...sorted.map((name, i) => `  | '${name}'${i === sorted.length - 1 ? ';' : ''}`),
      '',
    ].join('\n');
    if (!existsSync(file) || readFileSync(file, 'utf8') !== text) writeFileSync(file, text);
  };
  write(
    'src/commandIds.ts',
    'commands',
    'CommandId',
    contributes.commands.map((c) => c.command),
  );
  write(
    'src/toolNames.ts',
    'languageModelTools',
    'ToolName',
    contributes.languageModelTools.map((t) => t.name),
  );
}
writeManifestNames();
if (args.has('--command-ids')) process.exit(0);

const common = {
  bundle: true,
  platform: 'node',
  // A package's ES module build before its CommonJS one: jsonc-parser's CommonJS build is UMD,
  // whose requires esbuild cannot follow (as VS Code's own extensions bundle it).
  mainFields: ['module', 'main'],
  target: 'node20',
  format: 'cjs',
  logLevel: 'warning',
};

function entries(dir, pattern) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => pattern.test(f))
    .map((f) => join(dir, f));
}

/**
 * `require('vscode')` once per bundle. The extension host intercepts every require of 'vscode'
 * and looks up the calling extension by the file's real path; left external, esbuild keeps one
 * such require per source file.
 */
const vscodeOnce = {
  name: 'vscode-once',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) =>
      args.namespace === 'vscode-once' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'vscode-once' },
    );
    build.onLoad({ filter: /.*/, namespace: 'vscode-once' }, () => ({ contents: "module.exports = require('vscode');", loader: 'js' }));
  },
};

// The extension: one bundle, loaded at activation (what stays lazy is the work: see src/extension.ts),
// through the entry that compiles it with V8's code cache (src/start.ts, a few KB).
const extension = {
  ...common,
  entryPoints: { extension: 'src/extension.ts', start: 'src/start.ts' },
  outdir: 'dist',
  // src/ writes `import vscode = require('vscode')`: for `import * as vscode`, esbuild copies
  // the whole API object into a namespace in every importing file (__toESM).
  plugins: [vscodeOnce],
  minify: production,
  charset: 'utf8',
  sourcemap: !production,
  sourcesContent: false,
};

// The MCP server on stdio for agents outside VS Code (src/agent/mcp/entry/stdio.ts): a bundle of its own, with
// the MCP SDK; the extension never loads it (it only copies it and names it in configurations).
const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
const mcp = {
  ...common,
  entryPoints: { mcp: 'src/agent/mcp/entry/stdio.ts' },
  outdir: 'dist',
  define: { VERSION: JSON.stringify(version) },
  minify: production,
  charset: 'utf8',
  sourcemap: !production,
  sourcesContent: false,
  legalComments: 'none',
};

// The e-mail conversions (src/email/index.ts): a bundle of their own, loaded at the first e-mail
// (src/email/load.ts), so that activation never reads their parsers and sanitizer. Every library
// in it is taken in its CommonJS build (sanitize-html has no other), so htmlparser2 is in it once.
// postcss, which sanitize-html requires only to read style attributes it is never given, is
// replaced by a stub that throws (src/email/noPostcss.ts): some 90 KB less.
const NO_POSTCSS = { postcss: './src/email/noPostcss.ts' };
const email = {
  ...common,
  entryPoints: { email: 'src/email/index.ts' },
  outdir: 'dist',
  alias: NO_POSTCSS,
  minify: production,
  charset: 'utf8',
  sourcemap: !production,
  sourcesContent: false,
  legalComments: 'none',
};

const tests = {
  ...common,
  sourcemap: 'inline',
  packages: 'bundle',
  // vsce and ovsx run from node_modules as installed: the release checks and publishes with them.
  external: ['vscode', 'playwright-core', 'mocha', '@vscode/test-electron', '@vscode/vsce', 'ovsx', 'esbuild'],
};

const builds = [];
if (args.has('--unit')) {
  // The modules under unit test that use the vscode API get test/unit/fakeVscode.ts instead.
  // node --test runs every file in out/unit: one left by a test since deleted or renamed would run on.
  rmSync('out/unit', { recursive: true, force: true });
  builds.push({
    ...tests,
    entryPoints: entries('test/unit', /\.test\.ts$/),
    outdir: 'out/unit',
    external: tests.external.filter((e) => e !== 'vscode'),
    // The e-mail modules run as they ship: without postcss.
    alias: { vscode: './test/unit/fakeVscode.ts', ...NO_POSTCSS },
  });
  // The MCP tests run the stdio entry as an agent would.
  builds.push(mcp);
  // The modules that read posts' content load the e-mail bundle beside them (src/email/load.ts), as they do in dist/.
  builds.push({ ...email, outdir: 'out/unit' });
}
if (args.has('--server')) {
  builds.push({ ...tests, entryPoints: ['test/server/sandbox.ts'], outdir: 'out/server' });
}
if (args.has('--integration')) {
  // The launchers, and the suite's index, which bundles the suite's test files (see suite/index.ts).
  const integration = ['all.ts', 'codeServer.ts', 'versions.ts', 'electron.ts', 'demo.ts', 'suite/index.ts'].map((f) =>
    join('test/integration', f),
  );
  builds.push({ ...tests, entryPoints: integration, outbase: 'test/integration', outdir: 'out/integration' });
}
if (args.has('--ui')) {
  builds.push({ ...tests, entryPoints: ['test/ui/run.ts'], outdir: 'out/ui' });
}
if (args.has('--bench')) {
  // The launcher, and the suite the extension host loads (see test/bench/suite/index.ts).
  builds.push({
    ...tests,
    entryPoints: ['test/bench/bench.ts', 'test/bench/suite/index.ts', 'test/bench/cpuProfileHook.ts', 'test/bench/activationCpuHook.ts'],
    outbase: 'test/bench',
    outdir: 'out/bench',
  });
}
if (args.has('--release')) {
  builds.push({ ...tests, entryPoints: ['.ci/release.ts'], outdir: 'out/release' });
}
const testsOnly = builds.length > 0;
if (!testsOnly || args.has('--extension')) builds.push(extension, email, ...(builds.includes(mcp) ? [] : [mcp]));

if (args.has('--watch')) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('[watch] build started; watching for changes');
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}
