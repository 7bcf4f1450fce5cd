import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import { lstat, open, type FileHandle } from 'node:fs/promises';

/** O_NONBLOCK and O_NOFOLLOW where the platform has them (see openOwnFile). */
const OWN_FILE_FLAGS = (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/**
 * Opens one of the extension's own files, to read or to write (`flags`): without waiting, so that
 * a pipe put in the file's place holds nothing (opening or reading one would take one of the few
 * threads every file operation of the extension host shares, for as long as nothing is at its
 * other end), and not through a link in the file's place, which would name another file than the
 * extension's: that fails with ELOOP, also where opening cannot refuse a link itself (Windows).
 */
export async function openOwnFile(path: string, flags: number, mode?: number): Promise<FileHandle> {
  if (constants.O_NOFOLLOW === undefined && (await lstat(path).catch(() => undefined))?.isSymbolicLink())
    throw Object.assign(new Error(`${path} is a link`), { code: 'ELOOP' });
  return open(path, flags | OWN_FILE_FLAGS, mode);
}

/**
 * openOwnFile in this thread, at once: a file descriptor. For a file on this machine's disk the
 * call takes microseconds; going through the thread pool instead costs a hop there and back,
 * which a busy machine delays by a scheduler slice each (see storageFiles.ts).
 */
export function openOwnFileNow(path: string, flags: number, mode?: number): number {
  if (constants.O_NOFOLLOW === undefined && lstatIfAny(path)?.isSymbolicLink())
    throw Object.assign(new Error(`${path} is a link`), { code: 'ELOOP' });
  return openSync(path, flags | OWN_FILE_FLAGS, mode);
}

function lstatIfAny(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/**
 * A file the extension reads from its own folders, with Node's fs, bounded: its bytes and time,
 * or undefined when it holds more than `maxBytes` (not read past that), is no regular file, or is
 * a link (see openOwnFile). A missing file is an error, as with `readFile`. No `vscode` here:
 * the MCP entry reads its connection file with it too. In this thread (see openOwnFileNow): the
 * file is small and local, and a pipe in its place is not waited on.
 */
export function readBoundedNow(path: string, maxBytes: number): { bytes: Buffer; mtime: number } | undefined {
  let fd;
  try {
    fd = openOwnFileNow(path, constants.O_RDONLY);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') return undefined;
    throw error;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile() || info.size > maxBytes) return undefined;
    // As large as the file said, and one byte more: a file that grew since is read on, to the bound.
    let buffer = Buffer.alloc(info.size + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > maxBytes) return undefined;
        const larger = Buffer.alloc(Math.min(buffer.length * 2, maxBytes + 1));
        buffer.copy(larger);
        buffer = larger;
      }
      const bytesRead = readSync(fd, buffer, length, buffer.length - length, length);
      if (bytesRead === 0) return { bytes: buffer.subarray(0, length), mtime: info.mtimeMs };
      length += bytesRead;
    }
  } finally {
    closeSync(fd);
  }
}

/** readBoundedNow, for a caller that awaits: an error is a rejection. */
export function readBounded(path: string, maxBytes: number): Promise<{ bytes: Buffer; mtime: number } | undefined> {
  return new Promise((resolve) => resolve(readBoundedNow(path, maxBytes)));
}
