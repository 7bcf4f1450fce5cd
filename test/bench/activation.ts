// The extension host's own activation times, as the workbench shows them in "Developer: Show
// Running Extensions": per extension, the time to load its code and the time its activate() took
// to return (codeLoadingTime + activateCallTime, whole ms, from the extension host's
// ExtensionActivationTimes). The editor lists only extensions whose activation has started, and
// shows "Activating..." until the times come.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { limitMs } from '../limits';
import type { Workbench } from '../ui/workbench';

/** A built-in extension that activates on onStartupFinished: once its times show, that event has fired. */
const WITNESS = 'Merge Conflict';
const TIME = /Activation: (\d+)ms$/;

export interface Activation {
  /** codeLoadingTime + activateCallTime in ms; 0 when the extension was not activated at startup. */
  ms: number;
  atStartup: boolean;
}

/** The name the Running Extensions editor gives the one extension installed in `extensionsDir`. */
export function displayNameIn(extensionsDir: string): string {
  const folder = readdirSync(extensionsDir, { withFileTypes: true }).find((entry) => entry.isDirectory() && !entry.name.startsWith('.'));
  if (!folder) throw new Error(`No extension installed in ${extensionsDir}.`);
  const dir = join(extensionsDir, folder.name);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; publisher: string; displayName?: string };
  const key = /^%(.+)%$/.exec(manifest.displayName ?? '')?.[1];
  if (key) return (JSON.parse(readFileSync(join(dir, 'package.nls.json'), 'utf8')) as Record<string, string>)[key] ?? key;
  return manifest.displayName ?? `${manifest.publisher}.${manifest.name}`;
}

/** Evaluated in the page: each listed row's name and activation time. */
const ROWS = `Object.fromEntries([...document.querySelectorAll('.runtime-extensions-editor .monaco-list-row')]
  .map((row) => [row.querySelector('.name')?.textContent ?? '', row.querySelector('.activation-time')?.textContent ?? '']))`;

/**
 * Opens Running Extensions, waits for onStartupFinished to have fired (the witness's times show)
 * and for `name`'s times, if it was activated, then closes the editor again. Nothing else of the
 * window may have been opened: any activation seen is the startup's.
 */
export async function activationAtStartup(page: Page, wb: Workbench, name: string, timeoutMs = limitMs('uiReaction')): Promise<Activation> {
  await wb.runCommand('Developer: Show Running Extensions');
  const began = Date.now();
  let witnessedAt: number | undefined;
  try {
    for (;;) {
      const rows = await page.evaluate<Record<string, string>>(ROWS);
      const ours = rows[name];
      const time = ours === undefined ? undefined : TIME.exec(ours);
      if (time) return { ms: Number(time[1]), atStartup: true };
      if (witnessedAt === undefined && TIME.test(rows[WITNESS] ?? '')) witnessedAt = Date.now();
      // The editor refreshes 200 ms after a change: a second's grace after the witness.
      if (ours === undefined && witnessedAt !== undefined && Date.now() - witnessedAt > 1000) return { ms: 0, atStartup: false };
      if (Date.now() - began > timeoutMs) {
        throw new Error(`Running Extensions: no activation time for ${name} within ${timeoutMs / 1000} s (rows: ${JSON.stringify(rows)}).`);
      }
      await page.waitForTimeout(100);
    }
  } finally {
    await wb.runCommand('View: Close All Editors');
  }
}
