// `npm run package` (its vscode:prepublish builds dist/extension.js with
// `node esbuild.mjs --production`, then vsce packs the .vsix), and the .vsix unpacked: the bench
// measures and loads exactly what ships.
import { copyFileSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { runCommand } from '../codeServer/codeServerInstall';
import { packageVsix } from '../codeServer/editor';
import type { Cleanups } from '../codeServer/run';

export interface Packaged {
  /** publisher.name */
  id: string;
  vsixName: string;
  vsixBytes: number;
  /** The .vsix's bundles: what activation loads, and what loads on first use. */
  bundles: { extension: number; helpdesk: number };
  /** The .vsix's extension/ folder, unpacked: loaded as the development extension. */
  extensionDir: string;
}

export async function packageExtension(root: string, temp: string, cleanups: Cleanups): Promise<Packaged> {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { publisher: string; name: string };
  const packaged = await packageVsix(root, cleanups);
  const vsixName = basename(packaged);
  // A copy, so that another run packaging in the repo meanwhile cannot change what is measured.
  const vsix = join(temp, vsixName);
  copyFileSync(packaged, vsix);
  const unpacked = join(temp, 'vsix');
  try {
    await runCommand('unzip', ['-q', '-o', vsix, 'extension/*', '-d', unpacked], { cwd: temp, cleanups });
  } catch {
    const extract = 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])';
    await runCommand('python3', ['-c', extract, vsix, unpacked], { cwd: temp, cleanups });
  }
  const extensionDir = join(unpacked, 'extension');
  return {
    id: `${manifest.publisher}.${manifest.name}`,
    vsixName,
    vsixBytes: statSync(vsix).size,
    bundles: { extension: statSync(join(extensionDir, 'dist', 'extension.js')).size, helpdesk: statSync(join(extensionDir, 'dist', 'helpdesk.js')).size },
    extensionDir,
  };
}
