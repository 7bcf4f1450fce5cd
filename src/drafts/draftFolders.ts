// The drafts' folders in the extension's global storage, each shared by every window (see sharedFolder).
import vscode = require('vscode');
import { sharedFolder } from '../globalStorage/sharedFolders';
import { MAX_DRAFT_FILE_BYTES, type DraftFolder } from './draftFiles';
import type { PresenceFolder } from './windowPresence';

/** A window's presence file is a few ids (a draft file's bound is MAX_DRAFT_FILE_BYTES). */
const MAX_PRESENCE_BYTES = 256 * 1024;

/** The windows' presence files (see WindowPresence), in a folder of the extension's global storage: one folder for every window. */
export function presenceFolder(globalStorage: vscode.Uri): PresenceFolder {
  return sharedFolder(vscode.Uri.joinPath(globalStorage, 'windows'), MAX_PRESENCE_BYTES);
}

/** The drafts, one file each (see DraftStore), in a folder of the extension's global storage. */
export function draftFolder(globalStorage: vscode.Uri): DraftFolder {
  return sharedFolder(vscode.Uri.joinPath(globalStorage, 'drafts'), MAX_DRAFT_FILE_BYTES);
}

/** What this VS Code filed lately, by intent (see FiledIntents), one small file per post. */
export function filedFolder(globalStorage: vscode.Uri): PresenceFolder {
  return sharedFolder(vscode.Uri.joinPath(globalStorage, 'filed'), MAX_PRESENCE_BYTES);
}
