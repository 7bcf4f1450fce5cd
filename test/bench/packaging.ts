// What ships, measured as it ships: `npm run package` (its vscode:prepublish builds the
// production bundles, then vsce packs the .vsix), and the .vsix unpacked. Also the floor's .vsix.
import { copyFileSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { runCommand } from '../codeServer/commands';
import { packageVsix } from '../codeServer/editor';
import type { Cleanups } from '../codeServer/run';

export interface Packaged {
  /** publisher.name */
  id: string;
  /** A copy in the bench's folder, so that another run packaging in the repo meanwhile cannot change what is measured. */
  vsix: string;
  vsixBytes: number;
  /** The .vsix's bundles (dist/*.js) and their sizes. */
  bundles: Record<string, number>;
  /** The entry activation loads (package.json's "main"), as a key of `bundles`; it loads the rest it needs. */
  main: string;
  /** The .vsix's extension/ folder, unpacked: loaded as the development extension. */
  extensionDir: string;
}

export async function packageExtension(root: string, temp: string, cleanups: Cleanups): Promise<Packaged> {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { publisher: string; name: string; main: string };
  const packaged = await packageVsix(root, cleanups);
  const vsix = join(temp, basename(packaged));
  copyFileSync(packaged, vsix);
  const unpacked = join(temp, 'vsix');
  try {
    await runCommand('unzip', ['-q', '-o', vsix, 'extension/*', '-d', unpacked], { cwd: temp, cleanups });
  } catch {
    const extract = 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])';
    await runCommand('python3', ['-c', extract, vsix, unpacked], { cwd: temp, cleanups });
  }
  const extensionDir = join(unpacked, 'extension');
  const dist = join(extensionDir, 'dist');
  const bundles = Object.fromEntries(
    readdirSync(dist)
      .filter((f) => f.endsWith('.js'))
      .map((f) => [`dist/${f}`, statSync(join(dist, f)).size]),
  );
  return {
    id: `${manifest.publisher}.${manifest.name}`,
    vsix,
    vsixBytes: statSync(vsix).size,
    bundles,
    main: manifest.main.replace(/^\.\//, ''),
    extensionDir,
  };
}

/** test/bench/fixture/floor packed as it is into `<temp>/floor.vsix`. */
export async function packageFloor(root: string, temp: string, cleanups: Cleanups): Promise<string> {
  const vsix = join(temp, 'floor.vsix');
  const vsce = join(root, 'node_modules', '.bin', 'vsce');
  await runCommand(vsce, ['package', '--no-dependencies', '--skip-license', '--out', vsix], {
    cwd: join(root, 'test', 'bench', 'fixture', 'floor'),
    cleanups,
  });
  return vsix;
}
