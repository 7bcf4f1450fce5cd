// A display language other than English in code-server, with no gallery to fetch a language pack
// from: a minimal pack of our own (packLanguagePack), installed like any .vsix, and registered
// before the server starts (registerLanguagePacks).
//
// VS Code takes a --locale only when its user data folder's languagepacks.json names a pack for
// it. A running server writes that file when a pack is installed through it; code-server's
// `--install-extension` runs VS Code's CLI, which installs the extension but leaves the file
// alone, so the locale would fall back to English. registerLanguagePacks writes the entries the
// server would have written (the shape of VS Code 1.100's LanguagePacksCache). If a later VS Code
// changes that file, the locale falls back to English and a test that reads a translated string
// fails: nothing passes silently.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface Localization {
  languageId: string;
  languageName?: string;
  localizedLanguageName?: string;
  translations: { id: string; path: string }[];
}

/**
 * Writes into `dir` and packs a language pack for `languageId` that translates nothing of VS
 * Code's own (its strings stay English) but makes the language VS Code's display language, so
 * that `vscode.env.language` is `languageId` and extensions show their own translations.
 */
export function packLanguagePack(root: string, dir: string, languageId: string, names: { english: string; own: string }): string {
  const folder = join(dir, `language-pack-${languageId}`);
  mkdirSync(join(folder, 'translations'), { recursive: true });
  const manifest = {
    name: `helpdesk-ui-language-${languageId}`,
    displayName: `Helpdesk UI tests: ${names.english} display language`,
    publisher: 'helpdesk-bridge-tests',
    version: '0.0.1',
    engines: { vscode: '^1.95.0' },
    categories: ['Language Packs'],
    contributes: {
      localizations: [
        {
          languageId,
          languageName: names.english,
          localizedLanguageName: names.own,
          translations: [{ id: 'vscode', path: './translations/main.i18n.json' }],
        },
      ],
    },
  };
  writeFileSync(join(folder, 'package.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(join(folder, 'translations', 'main.i18n.json'), JSON.stringify({ version: '1.0.0', contents: {} }));
  writeFileSync(join(folder, 'README.md'), `Makes ${names.english} VS Code's display language, for the UI tests.\n`);
  const vsix = join(dir, `language-pack-${languageId}.vsix`);
  const vsce = join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
  execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', vsix], {
    cwd: folder,
    stdio: 'pipe',
  });
  return vsix;
}

/** Registers in `userDataDir` every language pack installed in `extensionsDir` (see the top of this file). */
export function registerLanguagePacks(userDataDir: string, extensionsDir: string): string[] {
  const packs: Record<string, { hash: string; extensions: object[]; translations: Record<string, string>; label: string }> = {};
  for (const folder of existsSync(extensionsDir) ? readdirSync(extensionsDir) : []) {
    const manifestFile = join(extensionsDir, folder, 'package.json');
    if (!existsSync(manifestFile)) continue;
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as {
      name: string;
      publisher: string;
      version: string;
      contributes?: { localizations?: Localization[] };
    };
    const id = `${manifest.publisher}.${manifest.name}`.toLowerCase();
    for (const localization of manifest.contributes?.localizations ?? []) {
      packs[localization.languageId] = {
        hash: createHash('md5').update(id).update(manifest.version).digest('hex'),
        extensions: [{ extensionIdentifier: { id }, version: manifest.version }],
        translations: Object.fromEntries(localization.translations.map((t) => [t.id, join(extensionsDir, folder, t.path)])),
        label: localization.localizedLanguageName ?? localization.languageName ?? localization.languageId,
      };
    }
  }
  writeFileSync(join(userDataDir, 'languagepacks.json'), JSON.stringify(packs));
  return Object.keys(packs);
}
