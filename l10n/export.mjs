// The runtime strings: every vscode.l10n.t message in src/, exported by @vscode/l10n-dev.
//   npm run l10n                        writes l10n/bundle.l10n.json (English; the messages are their own keys)
//   node l10n/export.mjs --stdout       prints the bundle instead (what test/unit/l10n.coverage.test.ts reads)
// The English bundle is not committed: VS Code reads only the translations (bundle.l10n.<language>.json),
// and a copy kept by hand would drift from the code. Translators run this to see what is new.
import { getL10nJson } from '@vscode/l10n-dev';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * src/ writes `import vscode = require('vscode')` (see esbuild.mjs's vscodeOnce), a form l10n-dev's
 * parser does not recognise as the API's import (microsoft/vscode-l10n#168): it would find no string.
 * Each file is handed to it with that one line as `const vscode = require('vscode')`, which it does.
 */
function asL10nDevReadsIt(source) {
  return source.replace(/^import\s+(\w+)\s*=\s*require\(\s*(['"])vscode\2\s*\);?/gm, "const $1 = require('vscode');");
}

function typeScriptFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name))
    .sort();
}

const files = typeScriptFiles(join(root, 'src'));
const bundle = await getL10nJson(
  files.map((file) => ({ extension: extname(file), contents: asL10nDevReadsIt(readFileSync(file, 'utf8')) })),
);
const text = `${JSON.stringify(bundle, null, 2)}\n`;

if (process.argv.includes('--stdout')) process.stdout.write(text);
else {
  const out = join(root, 'l10n', 'bundle.l10n.json');
  writeFileSync(out, text);
  console.log(`${Object.keys(bundle).length} strings from ${files.length} files: ${out}`);
}
