// An agent's configuration file, the person's own: read to a bound and never waited on, and
// replaced whole only when it still holds what was read. Never through a link in its place (it
// would write a file elsewhere, their dotfiles' maybe), never a pipe. No vscode import.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, realpath, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { openOwnFile, readBounded } from '../../globalStorage/readBounded';
import { MAX_CONFIG_CHARS } from './agentConfigs';

/** Why a file was not read: what is in its place, or that it could not be. */
export type Unreadable = 'link' | 'notFile' | 'tooLarge' | 'notText' | 'unreadable' | 'ownFolder';

/** The file as read: its text and bytes (none: there is no such file), or why it was not read. */
export type ReadConfig = { readonly text: string | undefined; readonly bytes: Buffer | undefined } | { readonly unreadable: Unreadable };

/** The most bytes read of a configuration file: as many as its text may have characters, each up to 3 bytes in UTF-8. */
const MAX_CONFIG_BYTES = MAX_CONFIG_CHARS * 3;

/** The file at `path`, unless it is in `ownFolder` (the extension's, which holds the run's secret) or is no plain file of text. */
export async function readConfigFile(path: string, ownFolder: string): Promise<ReadConfig> {
  if ((await realFolder(dirname(path))) === (await realFolder(ownFolder))) return { unreadable: 'ownFolder' };
  let read;
  try {
    read = await readBounded(path, MAX_CONFIG_BYTES);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? { text: undefined, bytes: undefined } : { unreadable: 'unreadable' };
  }
  if (!read) {
    // readBounded says only that it did not read it: which, in words, from what is there.
    const there = await lstat(path).catch(() => undefined);
    return { unreadable: there?.isSymbolicLink() ? 'link' : there?.isFile() ? 'tooLarge' : 'notFile' };
  }
  try {
    // The BOM kept (it is written back as it was), and bytes that are not UTF-8 not guessed at.
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(read.bytes), bytes: read.bytes };
  } catch {
    return { unreadable: 'notText' };
  }
}

/**
 * Writes `text` to `path`, which held `before` when it was read (undefined: there was no file).
 * A new file is made only where none is (nor a link); an existing one is replaced in one step by a
 * file of its mode written beside it, and only if it still holds `before`: resolves to false, and
 * writes nothing, when it changed meanwhile (the agent itself may have written it).
 */
export async function writeConfigFile(path: string, before: Buffer | undefined, text: string): Promise<boolean> {
  const bytes = Buffer.from(text, 'utf8');
  if (before === undefined) {
    await mkdir(dirname(path), { recursive: true });
    try {
      await writeWhole(path, bytes, constants.O_EXCL, 0o666);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
    return true;
  }
  const mode = (await lstat(path)).mode & 0o777;
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  await writeWhole(temp, bytes, constants.O_EXCL, mode);
  try {
    const now = await readBounded(path, MAX_CONFIG_BYTES).catch(() => undefined);
    if (!now || !now.bytes.equals(before)) {
      await unlink(temp);
      return false;
    }
    await rename(temp, path);
    return true;
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/** Written, flushed and closed; never through a link or into a pipe (see openOwnFile). */
async function writeWhole(path: string, bytes: Buffer, flags: number, mode: number): Promise<void> {
  const handle = await openOwnFile(path, constants.O_WRONLY | constants.O_CREAT | flags, mode);
  try {
    // The mode as given, past the umask: a replacement keeps the mode of the file it replaces.
    if (mode !== 0o666) await handle.chmod(mode);
    await handle.writeFile(bytes);
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

/** A folder by where it really is (as named where it is not there). */
async function realFolder(path: string): Promise<string> {
  return realpath(path).catch(() => resolve(path));
}
