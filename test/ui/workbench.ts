// The parts of VS Code's workbench (1.100, as served by code-server) that the UI tests touch,
// found the way a person finds them: by the names and labels shown on screen.
import type { Locator, Page } from 'playwright-core';
import { limitMs } from '../limits';

/** A string matched exactly (after trimming), for `hasText` and `name` options. */
export function exactly(text: string): RegExp {
  return new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
}

export class Workbench {
  constructor(readonly page: Page) {}

  /** The workbench is laid out and the activity bar is showing. */
  async ready(timeoutMs = limitMs('workbenchReady')): Promise<void> {
    await this.page.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: timeoutMs });
  }

  /** An activity-bar entry (a view container's icon) by the start of its accessible label. */
  activity(labelStart: string): Locator {
    // The label is on the icon (a.action-label); its li.action-item has an empty aria-label.
    return this.page.locator(`.part.activitybar .action-item .action-label[aria-label^="${labelStart}"]`).first();
  }

  /** The side bar's pane (one view) whose header shows `title`. */
  pane(title: string): Locator {
    return this.page.locator('.part.sidebar .pane').filter({ has: this.page.locator('.pane-header .title', { hasText: exactly(title) }) });
  }

  paneHeader(title: string): Locator {
    return this.pane(title).locator('.pane-header');
  }

  /** The rendered rows of a view's tree (only the visible ones: the list is virtual). */
  rows(pane: Locator): Locator {
    return pane.locator('.monaco-list-row');
  }

  /** The tree's first row. Rows are recycled, so DOM order is not list order: use data-index. */
  firstRow(pane: Locator): Locator {
    return pane.locator('.monaco-list-row[data-index="0"]');
  }

  row(pane: Locator, label: string): Locator {
    return this.rows(pane).filter({ has: this.page.locator('.label-name', { hasText: exactly(label) }) });
  }

  /** The quick input (command palette, quick pick, input box) while it is showing. */
  get quickInput(): Locator {
    return this.page.locator('.quick-input-widget');
  }

  get quickInputField(): Locator {
    return this.quickInput.locator('.quick-input-box input');
  }

  get quickInputTitle(): Locator {
    return this.quickInput.locator('.quick-input-title');
  }

  /** Rows of the quick pick list (visible ones). */
  get quickPickRows(): Locator {
    return this.quickInput.locator('.quick-input-list .monaco-list-row');
  }

  /** Waits until the quick input shows a box titled `title` (a RegExp or the exact text). */
  async inputBox(title: string | RegExp, timeoutMs = limitMs('uiReaction')): Promise<Locator> {
    const expected = typeof title === 'string' ? exactly(title) : title;
    await this.quickInput
      .filter({ has: this.page.locator('.quick-input-title', { hasText: expected }) })
      .waitFor({ state: 'visible', timeout: timeoutMs });
    return this.quickInputField;
  }

  /** Opens the command palette (F1) filtered by `text`. */
  async commandPalette(text: string): Promise<void> {
    await this.focusWorkbench();
    await this.page.keyboard.press('F1');
    await this.quickInputField.waitFor({ state: 'visible' });
    await this.quickInputField.fill(`>${text}`);
  }

  /**
   * Runs a command from the palette by its exact label, as a person would. The palette lists the
   * commands whose `when` clause held when it opened; in a window that has just started, a
   * context key may come a moment later, so like a person it closes the palette and looks again.
   * `opensInput`: the command opens a quick input (see above).
   */
  async runCommand(label: string, attempts = 3, { opensInput = false } = {}): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      await this.commandPalette(label);
      const row = this.quickPickRows.filter({ has: this.page.locator('.label-name', { hasText: exactly(label) }) }).first();
      try {
        await row.waitFor({ state: 'visible', timeout: limitMs('uiReaction') });
      } catch (error) {
        if (attempt >= attempts) throw error;
        continue; // commandPalette() closes the open palette first
      }
      await row.click();
      // A command that opens a quick input of its own reuses the widget: it may never be seen
      // hidden in between, so the caller waits for that input (see `inputBox`) instead.
      if (!opensInput) await this.quickInput.waitFor({ state: 'hidden' });
      return;
    }
  }

  /** Notification toasts on screen (bottom right). */
  get toasts(): Locator {
    return this.page.locator('.notifications-toasts .notification-toast');
  }

  toast(text: string | RegExp): Locator {
    return this.toasts.filter({ has: this.page.locator('.notification-list-item-message', { hasText: text }) });
  }

  /** The workbench's modal dialog (a confirmation) while it shows. */
  get dialog(): Locator {
    return this.page.locator('.monaco-dialog-box');
  }

  dialogButton(label: string | RegExp): Locator {
    return this.dialog.locator('.dialog-buttons .monaco-button', { hasText: label });
  }

  /** The context menu while it is open. */
  get contextMenu(): Locator {
    return this.page.locator('.context-view .monaco-menu');
  }

  menuItem(label: string): Locator {
    return this.contextMenu.locator('.action-item').filter({ has: this.page.locator('.action-label', { hasText: exactly(label) }) });
  }

  /**
   * Runs a context menu's item as a person does, once the menu takes it. VS Code's menu listens
   * for an item's mouse-up only from 100 ms after it rendered the item (so that the right-click's
   * own mouse-up picks nothing): a click sooner is dropped and the menu stays open, which is what
   * made the steps after it flaky on a busy machine. The menu takes keys at once, so the item is
   * pointed at (hovered: the menu focuses it), seen focused, and chosen with Enter.
   */
  async chooseMenuItem(label: string, before?: () => Promise<void>): Promise<void> {
    const item = this.menuItem(label);
    await item.waitFor({ state: 'visible' });
    await item.hover();
    await item.and(this.page.locator('.focused')).waitFor({ state: 'visible', timeout: limitMs('uiReaction') });
    await before?.();
    await this.page.keyboard.press('Enter');
    await this.contextMenu.waitFor({ state: 'hidden', timeout: limitMs('uiReaction') });
  }

  /** The Quick Fix menu (Ctrl+. or the light bulb) while it is open. */
  get quickFixMenu(): Locator {
    return this.page.locator('.action-widget');
  }

  quickFixItem(label: string): Locator {
    // A row may show a keybinding after the title.
    return this.quickFixMenu.locator('.monaco-list-row').filter({ hasText: label });
  }

  /** The editor's hover (the mouse resting on code), while it shows. */
  get hover(): Locator {
    return this.page.locator('.monaco-editor .monaco-hover:not(.hidden)');
  }

  /** Opens a file with Quick Open (Ctrl+P), as a person would; returns its editor once its text (a line holding `lineText`, if given) shows. */
  async quickOpen(fileName: string, lineText?: string): Promise<Locator> {
    await this.focusWorkbench();
    await this.page.keyboard.press('Control+P');
    await this.quickInputField.waitFor({ state: 'visible' });
    await this.quickInputField.pressSequentially(fileName);
    await this.quickPickRows.filter({ hasText: fileName }).first().waitFor({ state: 'visible' });
    await this.page.keyboard.press('Enter');
    await this.quickInput.waitFor({ state: 'hidden' });
    const editor = this.editor(fileName);
    await editor
      .locator('.view-lines .view-line', lineText ? { hasText: lineText } : {})
      .first()
      .waitFor({ state: 'visible' });
    return editor;
  }

  /** The text of an editor's rendered lines, top to bottom (spaces as spaces). */
  async lineTexts(editor: Locator): Promise<string[]> {
    return editor
      .locator('.view-lines')
      .evaluate((lines) =>
        [...lines.querySelectorAll('.view-line')]
          .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)
          .map((line) => (line.textContent ?? '').replace(/\u00a0/g, ' ')),
      );
  }

  /** The editor (group) showing `fileName` in its active tab. */
  editor(fileName: string): Locator {
    return this.page
      .locator('.editor-group-container')
      .filter({ has: this.page.locator('.tab.active', { hasText: fileName }) })
      .locator('.monaco-editor');
  }

  /** Selects lines `from`–`to` (1-based, the last to its end) with the keyboard, after a click into the line holding `clickOn`. */
  async selectLines(editor: Locator, clickOn: string, from: number, to: number): Promise<void> {
    await editor.locator('.view-lines .view-line', { hasText: clickOn }).click();
    await this.page.keyboard.press('Control+Home');
    for (let line = 1; line < from; line++) await this.page.keyboard.press('ArrowDown');
    for (let line = from; line < to; line++) await this.page.keyboard.press('Shift+ArrowDown');
    await this.page.keyboard.press('Shift+End');
    await editor.locator('.selected-text').first().waitFor({ state: 'visible' });
  }

  /**
   * Where an element is on screen. The editor re-renders a line's spans when its tokens change
   * (the TypeScript server's colours arrive a moment after the file opens), so the element found
   * may be gone by the time it is measured: measure again until it holds still.
   */
  async boxOf(element: Locator, timeoutMs = limitMs('uiReaction')): Promise<{ x: number; y: number; width: number; height: number }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await element.waitFor({ state: 'visible', timeout: Math.max(1, deadline - Date.now()) });
      const box = await element.boundingBox();
      if (box) return box;
      if (Date.now() > deadline) throw new Error('The element never stayed on screen long enough to be measured.');
      await this.page.waitForTimeout(100);
    }
  }

  /** Drags the sash at the side bar's right edge, as a person widens it. */
  async setSidebarWidth(width: number): Promise<void> {
    const bar = await this.page.locator('.part.sidebar').boundingBox();
    if (!bar) throw new Error('The side bar is not showing.');
    const edge = bar.x + bar.width;
    const y = bar.y + bar.height / 2;
    await this.page.mouse.move(edge, y);
    await this.page.mouse.down();
    await this.page.mouse.move(bar.x + width, y, { steps: 5 });
    await this.page.mouse.up();
  }

  /** Moves the mouse where hovering shows nothing: the title bar, left of the command center. */
  async parkMouse(): Promise<void> {
    const bar = await this.page.locator('.part.titlebar').boundingBox();
    if (bar) await this.page.mouse.move(bar.x + 200, bar.y + bar.height / 2);
  }

  /** A status bar entry by (part of) its text, e.g. the TypeScript server's "Analyzing…". */
  statusItem(text: string | RegExp): Locator {
    return this.page.locator('.part.statusbar .statusbar-item', { hasText: text });
  }

  /**
   * Sets a boolean setting in the Settings editor, as a person would: search for its id, tick or
   * untick its box, close the editor. (The web workbench does not notice a settings.json changed
   * on disk behind its back.)
   */
  async setBooleanSetting(id: string, on: boolean): Promise<void> {
    await this.runCommand('Preferences: Open User Settings');
    const settings = this.page.locator('.settings-editor');
    await settings.waitFor({ state: 'visible' });
    // The search box has the focus; `@id:` leaves exactly this setting.
    await settings.locator('.settings-header .suggest-input-container .monaco-editor').click();
    // After a reload the editor may open with the last search still in the box.
    await this.page.keyboard.press('Control+A');
    await this.page.keyboard.type(`@id:${id}`);
    const box = settings.locator('.setting-item-bool .setting-value-checkbox');
    // Until the search applies, the editor lists the commonly used settings.
    await settings.locator('.settings-count-widget', { hasText: '1 Setting Found' }).waitFor({ state: 'visible' });
    await box.waitFor({ state: 'visible' });
    // The count can show before the list's last redraw: a click on a row being replaced is lost
    // (the row takes the focus, the box stays as it was). The box is clicked again then, only
    // while it still shows the other value.
    const set = settings.locator(`.setting-item-bool .setting-value-checkbox[aria-checked="${on}"]`);
    for (let clicks = 0; (await box.getAttribute('aria-checked')) !== String(on); clicks++) {
      if (clicks === 3) throw new Error(`The Settings editor did not set ${id} to ${on} after ${clicks} clicks on its box.`);
      await box.click();
      await set.waitFor({ state: 'visible', timeout: limitMs('uiProbe') }).catch(() => undefined);
    }
    await this.runCommand('View: Close Editor');
    await settings.waitFor({ state: 'hidden' });
  }

  /**
   * Waits out the TypeScript server's "Analyzing '<file>' and its dependencies…" in the status
   * bar, which shows up a second or two after a TypeScript file opens and goes a few seconds
   * later (longer on a busy machine). Until then the Quick Fix menu may come up empty: the
   * TypeScript extension's providers change meanwhile, and VS Code then cancels every provider's
   * code actions, other extensions' too. Resolves at once if it does not show within its probe (test/limits.ts).
   */
  async typeScriptSettled(timeoutMs = limitMs('typeScriptAnalysis')): Promise<void> {
    const analyzing = this.statusItem(/^\s*Analyzing/);
    const shown = await analyzing.waitFor({ state: 'visible', timeout: limitMs('uiProbe') }).then(
      () => true,
      () => false,
    );
    if (shown) await analyzing.waitFor({ state: 'hidden', timeout: timeoutMs });
  }

  /**
   * After a step failed half-way: closes what it left open (a dialog, a menu, the palette) and
   * reverts the editors it left unsaved, so that the steps after it start where they expect (an
   * unsaved file makes "Close All Editors" ask, in a dialog over everything). Returns what it found.
   */
  async recover(): Promise<string[]> {
    const found: string[] = [];
    for (let tries = 0; tries < 3 && (await this.dialog.isVisible()); tries++) {
      found.push(`A dialog was left open: ${(await this.dialog.innerText()).replace(/\s+/g, ' ').trim()}`);
      await this.page.keyboard.press('Escape');
      await this.dialog.waitFor({ state: 'hidden', timeout: limitMs('uiReaction') }).catch(() => undefined);
    }
    for (const popup of [this.quickInput, this.contextMenu, this.quickFixMenu]) {
      if (await popup.isVisible()) {
        found.push('A menu or box was left open.');
        await this.page.keyboard.press('Escape');
        await popup.waitFor({ state: 'hidden', timeout: limitMs('uiReaction') }).catch(() => undefined);
      }
    }
    const unsaved = this.page.locator('.tabs-container .tab.dirty');
    for (let tries = 0; tries < 10 && (await unsaved.count()) > 0; tries++) {
      const tab = unsaved.first();
      found.push(`Reverted an unsaved editor: ${await tab.getAttribute('aria-label')}`);
      await tab.click();
      await this.runCommand('File: Revert File');
    }
    return found;
  }

  /** Closes whatever has focus in a popup (menu, quick input) so the keyboard reaches the workbench. */
  private async focusWorkbench(): Promise<void> {
    if (await this.quickInput.isVisible()) {
      await this.page.keyboard.press('Escape');
      await this.quickInput.waitFor({ state: 'hidden' });
    }
    // A key pressed with the focus in a webview (the conversation page's reply box) reaches the
    // workbench only as the webview forwards it, a message that a busy machine was seen to lose
    // (F1 opened no palette within 20 s); a person's F1 there works, so the test moves the focus
    // to the workbench's own document first, as clicking outside the page would.
    await this.page.locator('iframe').evaluateAll((frames) => {
      for (const frame of frames) if (frame.ownerDocument.activeElement === frame) (frame as unknown as { blur(): void }).blur();
    });
  }
}
