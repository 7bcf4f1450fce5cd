// `npm run publish [-- --dry-run]`: packs the extension once and publishes that same .vsix to the
// Visual Studio Marketplace (Microsoft Entra ID, no personal access token) and to Open VSX (its
// token, OVSX_PAT), then tags the version. The dry run does everything but the uploads, the
// registries' credential checks and the tag, and prints those commands as they would run.
// What it needs, and the workflow for CI: docs/releasing.md.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { isLicenseOk, validateManifest } from 'ovsx';
import { listingProblems, MAX_KEYWORDS, packageFiles, type Manifest } from './listing';

const root = join(__dirname, '..', '..');
const requireHere = createRequire(join(root, 'package.json'));

/** vsce's reader of a .vsix, the one `vsce publish --packagePath` runs first: it validates the packed manifest as packaging does. */
const vsceZip = requireHere('@vscode/vsce/out/zip') as {
  readVSIXPackage(path: string): Promise<{ manifest: Manifest & Record<string, unknown>; xmlManifest: VsixManifest }>;
  readZip(path: string, filter: (name: string) => boolean): Promise<Map<string, Buffer>>;
};
/** ovsx's reader of a .vsix, the one `ovsx publish X.vsix` runs for the namespace before it uploads. */
const ovsxZip = requireHere('ovsx/lib/zip') as { readVSIXPackage(path: string): Promise<Manifest> };

interface VsixManifest {
  PackageManifest: { Metadata: { Identity: { $: Record<string, string | undefined> }[]; Tags?: string[] }[] };
}

const usage = 'npm run publish [-- --dry-run]';
const args = process.argv.slice(2);
// `npm run publish --dry-run` (without the --) gives the flag to npm, which hands it on as npm_config_dry_run.
const dryRun = args.includes('--dry-run') || process.env.npm_config_dry_run === 'true';

/** The tokens this run can see: nothing it prints holds one (see redact). */
const secrets = [process.env.OVSX_PAT, process.env.VSCE_PAT, process.env.AZURE_CLIENT_SECRET].filter(
  (s): s is string => typeof s === 'string' && s.length >= 4,
);

function redact(text: string): string {
  let out = text;
  for (const secret of secrets) {
    for (const form of new Set([secret, encodeURIComponent(secret)])) out = out.split(form).join('***');
  }
  return out;
}

function say(line = ''): void {
  process.stdout.write(redact(line) + '\n');
}

function ok(line: string): void {
  say(`  ✓ ${line}`);
}

function fail(reason: string): never {
  process.stderr.write(redact(`  ✗ ${reason}`) + '\n');
  process.stderr.write(dryRun ? '\nThe dry run failed: the release would not run either.\n' : '\nNothing more was done.\n');
  process.exit(1);
}

function git(...gitArgs: string[]): string {
  return execFileSync('git', gitArgs, { cwd: root, encoding: 'utf8' }).trimEnd();
}

interface Command {
  /** What is run, as a shell in the repository's root would run it. */
  argv: string[];
  /** Variables removed from the command's environment. */
  unset?: string[];
  /** Where its credential comes from, said beside the command (never its value). */
  credential: string;
}

function shown(command: Command): string {
  const quote = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);
  const unset = (command.unset ?? []).flatMap((name) => ['-u', name]);
  return [...(unset.length > 0 ? ['env', ...unset] : []), ...command.argv].map(quote).join(' ');
}

/** Runs a command with its output passed on line by line, tokens redacted; answers its exit code and output. */
function run(argv: string[], options: { unset?: string[] } = {}): Promise<{ code: number; output: string }> {
  const env = { ...process.env };
  for (const name of options.unset ?? []) delete env[name];
  const [file, ...rest] = argv;
  return new Promise((resolve, reject) => {
    const child = spawn(file!, rest, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const pass = (stream: NodeJS.ReadableStream, to: NodeJS.WriteStream) => {
      let pending = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        pending += chunk;
        const end = pending.lastIndexOf('\n') + 1;
        if (end === 0) return;
        const lines = redact(pending.slice(0, end));
        pending = pending.slice(end);
        output += lines;
        to.write(lines.replace(/^(?=.)/gm, '    '));
      });
      stream.on('end', () => {
        if (pending === '') return;
        const last = redact(pending) + '\n';
        output += last;
        to.write('    ' + last);
      });
    };
    pass(child.stdout, process.stdout);
    pass(child.stderr, process.stderr);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

function binOf(pkg: string, bin: string): string {
  return relative(root, join(dirname(requireHere.resolve(`${pkg}/package.json`)), bin));
}

async function main(): Promise<void> {
  for (const arg of args) if (arg !== '--dry-run') fail(`unknown option ${arg}; usage: ${usage}`);
  const manifest = requireHere('./package.json') as Manifest & { name: string; publisher: string; version: string; displayName: string };
  const { name, publisher, version } = manifest;
  const tag = `v${version}`;
  const vsix = `${name}-${version}.vsix`;
  say(`${manifest.displayName} ${version}: ${publisher}.${name} to the Visual Studio Marketplace and Open VSX`);
  if (dryRun) say('(dry run: everything but the uploads, the registries\u2019 credential checks and the tag)');

  say('\n1. Before anything');
  const [major] = process.versions.node.split('.').map(Number);
  if (major! < 20) fail(`Node ${process.versions.node}: @vscode/vsce 3.9 and ovsx 1.1 need Node 20 or later`);
  ok(`Node ${process.versions.node}`);
  const dirty = git('status', '--porcelain');
  if (dirty !== '') fail(`the working tree has changes; commit or stash them first:\n${dirty}`);
  ok('the working tree is clean');
  const tagged = `${tag} is tagged already: ${version} is released; set the next version in package.json`;
  if (git('tag', '--list', tag) !== '') fail(tagged);
  // A clone may lack the tags (CI's shallow checkout does): origin's own say.
  if (git('remote').split('\n').includes('origin')) {
    let remoteTag: string | undefined;
    try {
      remoteTag = git('ls-remote', '--tags', 'origin', `refs/tags/${tag}`);
    } catch {
      if (!dryRun) fail(`origin could not be asked whether ${tag} exists (git ls-remote)`);
    }
    if (remoteTag !== undefined && remoteTag !== '') fail(`${tagged} (on origin)`);
    ok(remoteTag === undefined ? `${tag} is not tagged here (origin not reachable)` : `${tag} is not tagged, here or on origin`);
  } else {
    ok(`${tag} is not tagged (this clone has no origin to ask)`);
  }
  if (!dryRun && !process.env.OVSX_PAT) fail('OVSX_PAT is not set: Open VSX needs its token (see docs/releasing.md)');
  const commit = git('rev-parse', '--short', 'HEAD');
  ok(`releasing ${commit} (${git('rev-parse', '--abbrev-ref', 'HEAD')})`);

  say(`\n2. Package, once: npm run package`);
  const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
  const packing = await run([...npm, 'run', 'package'], { unset: ['VSCE_PAT', 'npm_config_dry_run'] });
  if (packing.code !== 0) fail(`npm run package failed (exit ${packing.code})`);
  const warnings = packing.output.split('\n').filter((line) => /\bWARNING\b/.test(line));
  if (warnings.length > 0) fail(`vsce warned while packing:\n${warnings.join('\n')}`);
  ok('vsce packed it without a warning');
  if (!existsSync(join(root, vsix))) fail(`npm run package wrote no ${vsix}`);
  if (git('status', '--porcelain') !== '') fail(`the build changed the working tree:\n${git('status', '--porcelain')}`);
  ok('the build left the working tree as it was');

  say(`\n3. Validate ${vsix} (${statSync(join(root, vsix)).size.toLocaleString('en')} bytes)`);
  const packed = await vsceZip.readVSIXPackage(join(root, vsix)).catch((e: unknown) => fail(`vsce: ${String(e)}`));
  const packedManifest = packed.manifest;
  if (packedManifest.enableProposedApi || packedManifest.enabledApiProposals) fail('vsce: the Marketplace takes no proposed API');
  const identity = packed.xmlManifest.PackageManifest.Metadata[0]!.Identity[0]!.$;
  if (identity.TargetPlatform) fail(`vsce: packed for ${identity.TargetPlatform} only; one universal package serves both registries`);
  if (`${identity.Publisher}.${identity.Id}@${identity.Version}` !== `${publisher}.${name}@${version}`) {
    fail(
      `vsce: the package is ${identity.Publisher}.${identity.Id}@${identity.Version}, package.json says ${publisher}.${name}@${version}`,
    );
  }
  ok(
    `vsce: the packed manifest passes what vsce publish checks before it uploads (${identity.Publisher}.${identity.Id} ${identity.Version}, universal)`,
  );

  try {
    const read = await ovsxZip.readVSIXPackage(join(root, vsix));
    validateManifest(read as Parameters<typeof validateManifest>[0]);
    if (!(await isLicenseOk(root, read as Parameters<typeof isLicenseOk>[1]))) fail('ovsx: no licence (open-vsx.org takes none without)');
    ok(`ovsx: readVSIXPackage, validateManifest, isLicenseOk: namespace ${String(read.publisher)}, licence ${String(read.license)}`);
  } catch (e) {
    fail(`ovsx: ${e instanceof Error ? e.message : String(e)}`);
  }

  const problems = listingProblems(packedManifest);
  if (problems.length > 0) fail(`the listing:\n${problems.map((p) => `    ${p}`).join('\n')}`);
  const tags = (packed.xmlManifest.PackageManifest.Metadata[0]!.Tags?.[0] ?? '').split(',').filter((t) => t !== '');
  if (tags.length > MAX_KEYWORDS) fail(`the listing: ${tags.length} tags in extension.vsixmanifest, the Marketplace takes ${MAX_KEYWORDS}`);
  const categories = (packedManifest.categories as string[]).join(', ');
  const keywords = (packedManifest.keywords as string[]).length;
  ok(`listing: categories ${categories}; ${keywords} keywords, ${tags.length} tags with vsce's; every field rule of both registries`);

  const entries = [...(await vsceZip.readZip(join(root, vsix), () => true)).entries()];
  // vsce writes LICENSE as LICENSE.txt; the .vsix's names are compared as vsce reads them, in lower case.
  const expected = packageFiles(root, packedManifest)
    .map((f) => `extension/${f === 'LICENSE' ? 'LICENSE.txt' : f}`.toLowerCase())
    .concat(['extension.vsixmanifest', '[content_types].xml'])
    .sort();
  const actual = entries.map(([entry]) => entry).sort();
  const missing = expected.filter((f) => !actual.includes(f));
  const extra = actual.filter((f) => !expected.includes(f));
  if (missing.length > 0 || extra.length > 0) {
    const wrong = [
      ...(extra.length > 0 ? [`holds what does not run: ${extra.join(', ')}`] : []),
      ...(missing.length > 0 ? [`lacks ${missing.join(', ')}`] : []),
    ];
    fail(`the package ${wrong.join('; ')} (see .vscodeignore)`);
  }
  ok(`contents: exactly the ${entries.length - 2} files the extension runs and shows (the list above), and the .vsix's two manifests`);

  say(`\n4. Publish ${vsix} to both`);
  const vsce = binOf('@vscode/vsce', 'vsce');
  const ovsx = binOf('ovsx', 'bin/ovsx');
  // vsce takes VSCE_PAT over --azure-credential when both are there: the Marketplace refuses global PATs now.
  const entra = 'Microsoft Entra ID: az login, or AZURE_* of a service principal (VSCE_PAT removed from its environment)';
  const token = `OVSX_PAT from the environment (${process.env.OVSX_PAT ? 'set' : 'not set'})`;
  const checks: Command[] = [
    { argv: ['node', vsce, 'verify-pat', '--azure-credential', publisher], unset: ['VSCE_PAT'], credential: entra },
    { argv: ['node', ovsx, 'verify-pat', publisher], credential: token },
  ];
  const uploads: Command[] = [
    {
      argv: ['node', vsce, 'publish', '--packagePath', vsix, '--azure-credential', '--skip-duplicate'],
      unset: ['VSCE_PAT'],
      credential: entra,
    },
    { argv: ['node', ovsx, 'publish', vsix, '--skip-duplicate'], credential: token },
  ];
  const tagging: Command = {
    argv: ['git', 'tag', '--annotate', tag, '--message', `${manifest.displayName} ${version}`],
    credential: 'none',
  };
  const all = [...checks, ...uploads, tagging];

  if (dryRun) {
    say('  These would run, in this order (each stops the release if it fails):');
    for (const command of all) {
      say(`    $ ${shown(command)}`);
      if (command.credential !== 'none') say(`      credential: ${command.credential}`);
    }
    say(`    then: git push origin ${tag}`);
    if (!process.env.OVSX_PAT) say('  ! OVSX_PAT is not set here: the release refuses to start without it.');
    say(`\nDry run passed: ${vsix} is the package both registries would get. Nothing was uploaded.`);
    return;
  }

  for (const command of all) {
    say(`  $ ${shown(command)}`);
    const argv = command.argv[0] === 'node' ? [process.execPath, ...command.argv.slice(1)] : command.argv;
    const result = await run(argv, { unset: command.unset ?? [] });
    if (result.code !== 0) {
      fail(
        uploads.includes(command) && command !== uploads[0]
          ? `${shown(command)} failed (exit ${result.code}); the Marketplace has ${version}: run the release again (--skip-duplicate passes over it)`
          : `${shown(command)} failed (exit ${result.code})`,
      );
    }
  }
  say(`\nReleased ${version} (${commit}) to the Visual Studio Marketplace and Open VSX, tagged ${tag}.`);
  say(`Push the tag: git push origin ${tag}`);
}

main().catch((e: unknown) => fail(e instanceof Error ? e.message : String(e)));
