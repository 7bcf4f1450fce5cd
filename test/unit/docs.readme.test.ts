import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';

/* The README is the Marketplace page: short, and true to the manifest. Its commands and settings
 * tables name what the manifest contributes, in the words a person sees (package.nls.json). */

const root = join(__dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

interface Manifest {
  contributes: {
    commands: { command: string; title: string }[];
    menus: Record<string, { command: string; when?: string }[]>;
    configuration: { properties: Record<string, { default?: unknown }> } | { properties: Record<string, { default?: unknown }> }[];
  };
}
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;
const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const shown = (title: string) => (title.startsWith('%') ? nls[title.slice(1, -1)]! : title);

/** The rows of the table under `## heading`: each row's cells, without the header and the rule. */
function tableUnder(heading: string): string[][] {
  const section = readme.split(/^## /m).find((part) => part.startsWith(`${heading}\n`));
  assert.ok(section, `the README has a "## ${heading}" section`);
  const rows = section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim()),
    );
  return rows.slice(2);
}

describe('the README', () => {
  it('is a page read in five minutes: at most 12 KB', () => {
    assert.ok(Buffer.byteLength(readme) <= 12 * 1024, `${Buffer.byteLength(readme)} bytes`);
  });

  it('lists every command the palette offers, by its title, and no command the manifest lacks', () => {
    const hidden = new Set(
      (manifest.contributes.menus.commandPalette ?? []).filter((item) => item.when === 'false').map((item) => item.command),
    );
    const titles = new Map(manifest.contributes.commands.map((c) => [shown(c.title), c.command]));
    const listed = tableUnder('Commands').map(([name]) => name!);
    assert.equal(new Set(listed).size, listed.length, 'each command once');
    for (const name of listed) assert.ok(titles.has(name), `"${name}" is a command's title in the manifest`);
    const inPalette = manifest.contributes.commands.filter((c) => !hidden.has(c.command)).map((c) => shown(c.title));
    assert.deepEqual(
      inPalette.filter((title) => !listed.includes(title)),
      [],
      'the commands of the palette the table leaves out',
    );
  });

  it('lists every setting with the default the manifest gives it, and no other', () => {
    const sections = manifest.contributes.configuration;
    const properties = Object.assign({}, ...(Array.isArray(sections) ? sections : [sections]).map((s) => s.properties)) as Record<
      string,
      { default?: unknown }
    >;
    const listed = tableUnder('Settings').map(([key, fallback]) => [key!.replace(/`/g, ''), fallback!.replace(/`/g, '')]);
    assert.deepEqual(listed.map(([key]) => key).sort(), Object.keys(properties).sort());
    for (const [key, fallback] of listed) assert.equal(fallback, JSON.stringify(properties[key!]!.default), `${key}'s default`);
  });

  it('shows pictures and links to pages that exist, and keeps the two set-up commands', () => {
    for (const [, target] of readme.matchAll(/\]\(((?!https?:)[^)#]+)\)/g)) {
      assert.ok(existsSync(join(root, target!)), `${target} exists`);
    }
    for (const [, target] of readFileSync(join(root, 'docs', 'guide.md'), 'utf8').matchAll(/\]\(((?!https?:)[^)#]+)\)/g)) {
      assert.ok(existsSync(join(dirname(join(root, 'docs', 'guide.md')), target!)), `docs/guide.md: ${target} exists`);
    }
    assert.match(readme, /`npm ci && npm start`/);
    assert.match(readme, /`npm ci && npm test`/);
  });
});
