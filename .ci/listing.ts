// What both registries need of the manifest and the package, checked without a network: the rules
// the Visual Studio Marketplace and Open VSX apply on upload that vsce and ovsx do not check before
// it, and the files the .vsix must hold. The release script (.ci/release.ts) runs them on the packed
// manifest and the .vsix; test/unit/listing.test.ts on package.json and .vscodeignore.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

/**
 * The Marketplace's categories: VS Code's own list (EXTENSION_CATEGORIES in its product code, the
 * same in 1.96 and 1.139). vsce does not check categories; the Marketplace files an extension under
 * these only.
 */
export const MARKETPLACE_CATEGORIES: readonly string[] = [
  'AI',
  'Azure',
  'Chat',
  'Data Science',
  'Debuggers',
  'Extension Packs',
  'Education',
  'Formatters',
  'Keymaps',
  'Language Packs',
  'Linters',
  'Machine Learning',
  'Notebooks',
  'Programming Languages',
  'SCM Providers',
  'Snippets',
  'Testing',
  'Themes',
  'Visualization',
  'Other',
];

/** The Marketplace takes at most 30 keywords (vsce 3.9 no longer counts them). */
export const MAX_KEYWORDS = 30;

/** Open VSX's limits (its server's ExtensionValidator): most fields 255 characters, the description 2,048. */
const FIELD_LENGTH = 255;
const DESCRIPTION_LENGTH = 2048;
const GALLERY_COLOR_LENGTH = 16;

/**
 * The bundles esbuild.mjs writes for the package: `main` (src/start.ts), the extension it loads
 * beside itself, the e-mail reader it loads at the first HTML e-mail (src/email/), and the MCP
 * server the extension hands to agents (src/agent/mcp/entry/stdio.ts).
 */
export const BUNDLES: readonly string[] = ['dist/start.js', 'dist/extension.js', 'dist/email.js', 'dist/mcp.js'];
/** The conversation page's script and style: webview resources, which no manifest field names. */
export const WEBVIEW_FILES: readonly string[] = ['media/conversation/page.css', 'media/conversation/page.js'];

/** The manifest's fields this file reads; everything else passes through unread. */
export interface Manifest {
  name?: unknown;
  publisher?: unknown;
  version?: unknown;
  displayName?: unknown;
  description?: unknown;
  license?: unknown;
  icon?: unknown;
  main?: unknown;
  l10n?: unknown;
  engines?: { vscode?: unknown };
  repository?: unknown;
  bugs?: unknown;
  homepage?: unknown;
  qna?: unknown;
  pricing?: unknown;
  categories?: unknown;
  keywords?: unknown;
  galleryBanner?: { color?: unknown; theme?: unknown };
  contributes?: unknown;
}

/** Control, format, unassigned, private-use and separator characters: Open VSX refuses a field holding one. */
const FORBIDDEN_CHARACTER = /[\p{Cc}\p{Cf}\p{Cn}\p{Co}\p{Zl}\p{Zp}]/u;
/** The description may join emoji (U+200D); Open VSX allows that one format character there. */
const FORBIDDEN_IN_DESCRIPTION = /(?!\u200d)[\p{Cc}\p{Cf}\p{Cn}\p{Co}\p{Zl}\p{Zp}]/u;
/** Open VSX's extension and namespace names. */
const NAME = /^[\w\-+$~]+$/;
/** A release version: the Marketplace takes no pre-release versions, and Open VSX wants semver. */
const RELEASE_VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

function isAbsoluteWebUrl(value: string): boolean {
  try {
    const url = new URL(value.startsWith('git+') ? value.slice(4) : value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.host !== '';
  } catch {
    return false;
  }
}

function urlOf(field: unknown): unknown {
  return typeof field === 'object' && field !== null ? (field as { url?: unknown }).url : field;
}

/** Every reason the Marketplace or Open VSX would refuse this manifest's listing, or the listing would lack a part; none when it is whole. */
export function listingProblems(manifest: Manifest): string[] {
  const problems: string[] = [];
  const text = (field: string, value: unknown, limit = FIELD_LENGTH, forbidden = FORBIDDEN_CHARACTER): value is string => {
    if (typeof value !== 'string' || value.trim() === '') {
      problems.push(`${field}: missing`);
      return false;
    }
    if (value.length > limit) problems.push(`${field}: ${value.length} characters, Open VSX takes ${limit}`);
    if (forbidden.test(value)) problems.push(`${field}: a control or invisible character`);
    return true;
  };
  const url = (field: string, value: unknown) => {
    if (text(field, value) && !isAbsoluteWebUrl(value)) problems.push(`${field}: not an absolute http(s) address: ${value}`);
  };

  for (const field of ['name', 'publisher'] as const) {
    if (text(field, manifest[field]) && !NAME.test(manifest[field])) problems.push(`${field}: not a registry name: ${manifest[field]}`);
  }
  if (text('version', manifest.version) && !RELEASE_VERSION.test(manifest.version)) {
    problems.push(`version: ${manifest.version} is not a release version (major.minor.patch)`);
  }
  text('engines.vscode', manifest.engines?.vscode);
  text('displayName', manifest.displayName);
  text('description', manifest.description, DESCRIPTION_LENGTH, FORBIDDEN_IN_DESCRIPTION);
  text('license', manifest.license);
  if (text('icon', manifest.icon) && !/\.png$/i.test(manifest.icon))
    problems.push(`icon: ${manifest.icon} is not a PNG (vsce refuses SVG icons)`);
  url('repository', urlOf(manifest.repository));
  url('bugs', urlOf(manifest.bugs));
  url('homepage', manifest.homepage);
  if (manifest.qna !== false && manifest.qna !== 'marketplace') url('qna', manifest.qna);
  if (manifest.pricing !== 'Free' && manifest.pricing !== 'Trial') problems.push(`pricing: ${String(manifest.pricing)}, not Free or Trial`);

  const banner = manifest.galleryBanner;
  const color = banner?.color;
  if (text('galleryBanner.color', color, GALLERY_COLOR_LENGTH) && !/^#[0-9a-f]{3,8}$/i.test(color)) {
    problems.push(`galleryBanner.color: ${color} is not a colour`);
  }
  if (banner?.theme !== 'dark' && banner?.theme !== 'light')
    problems.push(`galleryBanner.theme: ${String(banner?.theme)}, not dark or light`);

  const categories = manifest.categories;
  if (!Array.isArray(categories) || categories.length === 0) {
    problems.push('categories: none');
  } else {
    for (const category of categories) {
      if (!MARKETPLACE_CATEGORIES.includes(category as string))
        problems.push(`categories: ${String(category)} is not a Marketplace category`);
    }
    if (new Set(categories).size !== categories.length) problems.push('categories: one twice');
  }

  const keywords = manifest.keywords;
  if (!Array.isArray(keywords) || keywords.length === 0) {
    problems.push('keywords: none');
  } else {
    if (keywords.length > MAX_KEYWORDS) problems.push(`keywords: ${keywords.length}, the Marketplace takes ${MAX_KEYWORDS}`);
    keywords.forEach((keyword, i) => text(`keywords[${i}]`, keyword));
    const folded = keywords.map((k) => String(k).toLowerCase());
    if (new Set(folded).size !== folded.length) problems.push('keywords: one twice');
  }
  return problems;
}

/** A path in the manifest as the package lists it: relative, forward slashes, no leading `./`. */
function packagePath(path: string): string {
  return posix.normalize(path.replace(/\\/g, '/')).replace(/^\.\//, '');
}

/** The files the manifest's contributions name: icons (not codicons) and walkthrough media. */
function contributedFiles(contributes: unknown, resolve: (value: string) => string): string[] {
  const files: string[] = [];
  const add = (value: unknown) => {
    if (typeof value === 'string') {
      const path = resolve(value);
      if (!path.startsWith('$(') && !/^[a-z]+:/i.test(path)) files.push(packagePath(path));
    } else if (typeof value === 'object' && value !== null) {
      // { light, dark } (and high-contrast) variants of one icon or image.
      Object.values(value).forEach(add);
    }
  };
  const walk = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'icon') add(value);
      else if (key === 'media' && typeof value === 'object' && value !== null) {
        const media = value as Record<string, unknown>;
        ['markdown', 'image', 'svg'].forEach((kind) => add(media[kind]));
      } else walk(value);
    }
  };
  walk(contributes);
  return files;
}

/**
 * The files the .vsix must hold, sorted: the bundles, the manifest with its translations (and the
 * files each language's manifest names), the runtime translations, README, CHANGELOG and LICENSE.
 * Nothing else runs: sources, maps, tests, screenshots and node_modules stay out.
 */
export function packageFiles(root: string, manifest: Manifest): string[] {
  const files = new Set<string>(['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', ...BUNDLES, ...WEBVIEW_FILES]);
  if (typeof manifest.main === 'string') files.add(packagePath(manifest.main));
  if (typeof manifest.icon === 'string') files.add(packagePath(manifest.icon));

  // A `%key%` names a string of each language's package.nls file; one a language leaves out is the English file's.
  const readStrings = (file: string) =>
    existsSync(join(root, file)) ? (JSON.parse(readFileSync(join(root, file), 'utf8')) as Record<string, unknown>) : {};
  const english = readStrings('package.nls.json');
  const nlsFiles = readdirSync(root).filter((f) => /^package\.nls(\.[\w-]+)?\.json$/.test(f));
  for (const nlsFile of nlsFiles.length > 0 ? nlsFiles : ['package.nls.json']) {
    if (nlsFiles.length > 0) files.add(nlsFile);
    const strings = { ...english, ...readStrings(nlsFile) };
    const resolve = (value: string) => {
      const key = /^%(.+)%$/.exec(value)?.[1];
      const translated = key === undefined ? value : strings[key];
      return typeof translated === 'string' ? translated : value;
    };
    contributedFiles(manifest.contributes, resolve).forEach((f) => files.add(f));
  }

  // The runtime translations, one bundle per language; English is the strings themselves.
  if (typeof manifest.l10n === 'string') {
    const dir = packagePath(manifest.l10n);
    if (existsSync(join(root, dir))) {
      readdirSync(join(root, dir))
        .filter((f) => /^bundle\.l10n\.[\w-]+\.json$/.test(f))
        .forEach((f) => files.add(`${dir}/${f}`));
    }
  }
  return [...files].sort();
}
