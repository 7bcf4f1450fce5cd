import { renameSync } from 'node:fs';
import vscode = require('vscode');

/**
 * Renames `temp` over `file` in one step. VS Code's `workspace.fs.rename` with `overwrite` deletes
 * the file first (FileService.doMoveCopy), and a window reading it in between finds none; Node's
 * rename replaces it at once. On Windows another process holding the file open (a virus scanner)
 * can refuse it for a moment: tried again, then VS Code's way, which at least gets it written.
 * In this thread, at once, as storageFiles.ts makes its local steps (a hop to the thread pool
 * costs more than the rename).
 * No state: both bundles hold it (see esbuild.mjs).
 */
export async function replaceFile(temp: vscode.Uri, file: vscode.Uri): Promise<void> {
  if (temp.scheme === 'file') {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        return renameSync(temp.fsPath, file.fsPath);
      } catch (error) {
        if (!['EPERM', 'EACCES', 'EBUSY'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20 * (attempt + 1)));
      }
    }
  }
  await vscode.workspace.fs.rename(temp, file, { overwrite: true });
}
