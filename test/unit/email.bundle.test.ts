import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { after, describe, it } from 'node:test';
import * as esbuild from 'esbuild';
import { emailBundle } from '../../src/email/load';

/* The e-mail conversions are a bundle of their own (esbuild.mjs), loaded at their first use
 * (src/email/load.ts): activation never reads their parsers. */

const temp = mkdtempSync(join(tmpdir(), 'hb-email-bundle-'));
after(() => rmSync(temp, { recursive: true, force: true }));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

describe('the e-mail bundle', () => {
  it('builds as esbuild.mjs builds it (postcss left out), and loads at the first call, once', async () => {
    const file = join(temp, 'email.js');
    const result = await esbuild.build({
      entryPoints: ['src/email/index.ts'],
      outfile: file,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      alias: { postcss: './src/email/noPostcss.ts' },
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    assert.ok(!inputs.some((input) => input.includes('node_modules/postcss/')), 'no postcss');
    assert.equal(
      new Set(inputs.filter((i) => /node_modules\/htmlparser2\/dist\/(commonjs|esm)\/Parser\.js$/.test(i))).size,
      1,
      'one htmlparser2',
    );
    const loaded = emailBundle({ file });
    assert.equal(emailBundle({ file: join(temp, 'another.js') }), loaded, 'kept: read once');
    const converted = loaded.exports.postText({ content: '<div>Hello <b>there</b><script>x()</script></div>', task_kind: 'email' });
    assert.deepEqual(converted, { text: 'Hello there', html: true, truncated: false, quoted: false });
    assert.ok(loaded.exports.emailPage('<p onclick="x()">Hi</p>').html === '<p>Hi</p>');
  });

  it('no vscode in src/email; outside it, only load.ts and useHtml.ts (no parser) are imported, and only for their values', () => {
    for (const file of sources('src')) {
      const path = relative('.', file).split(sep).join('/');
      const code = readFileSync(file, 'utf8');
      if (path.startsWith('src/email/')) assert.ok(!/from 'vscode'|require\('vscode'\)/.test(code), `${path} imports vscode`);
      else
        for (const [, target] of code.matchAll(/from '([^']*\/email\/[^']*)'/g))
          assert.ok(/\/email\/(load|useHtml)$/.test(target!) || /^import type /m.test(code), `${path} imports ${target}`);
    }
  });
});
