import vscode = require('vscode');
import type { PresenceFolder } from './windowPresence';

/** The windows' presence files (see WindowPresence), in a folder of the extension's global storage: one folder for every window. */
export function presenceFolder(globalStorage: vscode.Uri): PresenceFolder {
  return storageFolder(globalStorage, 'windows');
}

/** A folder of the extension's global storage that every window reads and writes, a file per record. */
export function storageFolder(globalStorage: vscode.Uri, name: string): PresenceFolder {
  const { fs } = vscode.workspace;
  const folder = vscode.Uri.joinPath(globalStorage, name);
  const file = (name: string) => vscode.Uri.joinPath(folder, name);
  // The first write waits for it; a failure shows in that write.
  const made = Promise.resolve(fs.createDirectory(folder)).then(undefined, () => undefined);
  return {
    async names() {
      try {
        return (await fs.readDirectory(folder)).filter(([, type]) => type === vscode.FileType.File).map(([name]) => name);
      } catch {
        return []; // not made yet: no window has said anything
      }
    },
    async read(name) {
      try {
        const [bytes, stat] = await Promise.all([fs.readFile(file(name)), fs.stat(file(name))]);
        return { text: new TextDecoder().decode(bytes), mtime: stat.mtime };
      } catch {
        return undefined;
      }
    },
    async write(name, text) {
      await made;
      await fs.writeFile(file(name), new TextEncoder().encode(text));
    },
    async remove(name) {
      await fs.delete(file(name));
    },
  };
}
