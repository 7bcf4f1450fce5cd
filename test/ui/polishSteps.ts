// The UI tests in Polish: VS Code's display language is Polish (`npm run test:ui -- --polish`),
// and what a Polish support team sees of Helpdesk Bridge is Polish: the views and their welcome
// (package.nls.pl.json), the sign-in boxes, notification and post document (l10n/bundle.l10n.pl.json,
// which the extension host loads only when vscode.env.language is 'pl'), the palette's commands.
// VS Code's own strings stay English: the test's language pack translates none of them.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { limitMs } from '../limits';
import type { StandIn } from '../server';
import type { UiTest } from './runner';
import { CUSTOMER_POST, customerCardRead, openPostPage, showClientPosts, type Expected, type StepContext } from './steps';
import { exactly, Workbench } from './workbench';

export const POLISH_STEP = {
  container: 'the Helpdesk container in Polish, signed out: its views and their welcome',
  signIn: 'Zaloguj się asks in Polish and fills both trees',
  post: "a post opens as a Polish document (the row's Otwórz jako tekst)",
  palette: 'the command palette lists the Helpdesk commands in Polish',
  walkthrough: "the walkthrough's steps and pages are the Polish ones",
  conversation: "a client's e-mail opens as a Polish conversation page: its headings, buttons and dates",
};

/** Commands the palette lists in Polish, by their whole label (category and title). */
const POLISH_COMMANDS = ['Helpdesk: Zgłoś błąd z zaznaczenia…', 'Helpdesk: Powiąż szansę sprzedaży…', 'Helpdesk: Przypisane do mnie'];

export function polishTests(context: Pick<StepContext, 'page' | 'screenshotDir'> & { standIn: StandIn }, expected: Expected): UiTest[] {
  const { page, standIn } = context;
  const wb = new Workbench(page);
  const posts = wb.pane('Helpdesk');
  const clients = wb.pane('Klienci');
  const screenshot = async (name: string) => {
    if (!context.screenshotDir) return;
    await page.screenshot({ path: join(context.screenshotDir, name), animations: 'disabled', caret: 'hide' });
  };

  return [
    {
      name: POLISH_STEP.container,
      async run() {
        const activity = wb.activity('Helpdesk');
        await activity.waitFor({ state: 'visible', timeout: limitMs('workbenchReady') });
        await activity.click();
        await wb.setSidebarWidth(460);
        for (const pane of [posts, clients]) {
          await pane.locator('.welcome-view-content', { hasText: 'Zaloguj się, aby zobaczyć zgłoszenia i klientów' }).waitFor();
          await pane.locator('.welcome-view-content .monaco-button', { hasText: exactly('Zaloguj się') }).waitFor();
        }
      },
    },
    {
      name: POLISH_STEP.signIn,
      needs: [POLISH_STEP.container],
      async run() {
        await posts.locator('.welcome-view-content .monaco-button', { hasText: exactly('Zaloguj się') }).click();
        // The extension's own runtime strings: Polish only where vscode.env.language is 'pl'.
        const address = await wb.inputBox('Logowanie do helpdesku (1/2)');
        await address.press('Enter');
        const token = await wb.inputBox('Logowanie do helpdesku (2/2)');
        await token.pressSequentially(standIn.token);
        await token.press('Enter');
        await wb.quickInput.waitFor({ state: 'hidden' });
        await wb.toast(`Zalogowano do ${standIn.url}.`).waitFor({ state: 'visible' });
        for (const title of expected.posts) await wb.row(posts, title).waitFor({ state: 'visible', timeout: limitMs('uiReaction') });
        for (const name of expected.clients) await wb.row(clients, name).waitFor({ state: 'visible', timeout: limitMs('uiReaction') });
        await wb.runCommand('Notifications: Clear All Notifications');
        await wb.toasts.first().waitFor({ state: 'hidden' });
        await wb.parkMouse();
        await screenshot('pl-views.png');
      },
    },
    {
      name: POLISH_STEP.post,
      needs: [POLISH_STEP.signIn],
      async run() {
        // A row's click opens the conversation page; the document is its context menu's Open as Text.
        await wb.row(posts, expected.posts[0]!).click({ button: 'right' });
        await wb.chooseMenuItem('Otwórz jako tekst');
        const document = page.locator('.editor-group-container .monaco-editor').first();
        // The editor draws spaces as no-break spaces: \s matches both.
        await document
          .locator('.view-line', { hasText: /Zgłoszenie:\s#\d+/ })
          .waitFor({ state: 'visible', timeout: limitMs('uiReaction') });
        await document.locator('.view-line', { hasText: /Stan:\sotwarte/ }).waitFor({ state: 'visible' });
        await wb.parkMouse();
        await screenshot('pl-post.png');
      },
    },
    {
      name: POLISH_STEP.conversation,
      needs: [POLISH_STEP.signIn],
      async run() {
        const post = standIn.store.list(standIn.prefix, 'posts').find((p) => p.title === CUSTOMER_POST && p.post_id === null);
        const client =
          post && typeof post.client_id === 'number' ? standIn.store.get(standIn.prefix, 'clients', post.client_id) : undefined;
        assert.ok(post && client, "the demo's e-mail from a client");
        await showClientPosts(wb, clients, String(client.name), 'Pokaż zgłoszenia tego klienta');
        try {
          const body = await openPostPage(wb, posts, CUSTOMER_POST, post.id);
          // The page's own words (pageLabels, postFactsOf) from l10n/bundle.l10n.pl.json.
          await body.locator('#thread-heading', { hasText: exactly('Rozmowa') }).waitFor();
          await body.locator('#customer-heading', { hasText: exactly('Klient') }).waitFor();
          await customerCardRead(body, 'Inne otwarte zgłoszenia', 'Szanse sprzedaży', 'Wczytywanie…');
          await body.locator('#reply-heading', { hasText: exactly('Odpowiedź') }).waitFor();
          await body.locator('#reply-send', { hasText: exactly('Wyślij odpowiedź') }).waitFor();
          await body.locator('.actions button', { hasText: exactly('Zamknij zgłoszenie') }).waitFor();
          const facts = Object.fromEntries(
            await body.locator('.facts dt').evaluateAll((terms) => terms.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent])),
          ) as Record<string, string>;
          assert.equal(facts['Zgłoszenie'], `#${post.id}`);
          assert.equal(facts['Rodzaj'], 'e-mail');
          assert.equal(facts['Stan'], 'otwarte');
          assert.match(facts['Utworzono'] ?? '', /^\d{1,2} \p{Ll}{3,4} 2025, \d\d:\d\d$/u, 'a date as Polish writes it');
          if (context.screenshotDir) {
            await wb.runCommand('Notifications: Clear All Notifications');
            await wb.toasts.first().waitFor({ state: 'hidden' });
            await body.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
            await wb.parkMouse();
            await screenshot('pl-conversation.png');
          }
        } finally {
          await wb.runCommand('View: Close All Editors');
          await wb.runCommand('Helpdesk: Wyczyść filtr');
        }
      },
    },
    {
      name: POLISH_STEP.palette,
      needs: [POLISH_STEP.signIn],
      async run() {
        for (const command of POLISH_COMMANDS) {
          await wb.commandPalette(command);
          await wb.quickPickRows
            .filter({ has: page.locator('.label-name', { hasText: exactly(command) }) })
            .first()
            .waitFor({ state: 'visible' });
        }
        await wb.commandPalette('Helpdesk: ');
        await wb.quickPickRows.first().waitFor({ state: 'visible' });
        await screenshot('pl-palette.png');
        await page.keyboard.press('Escape');
      },
    },
    {
      name: POLISH_STEP.walkthrough,
      needs: [POLISH_STEP.container],
      async run() {
        await wb.commandPalette('Welcome: Open Walkthrough');
        await wb.quickPickRows.filter({ hasText: 'Open Walkthrough' }).first().click();
        await wb.quickPickRows.filter({ hasText: 'Pierwsze kroki z Helpdesk Bridge' }).first().click();
        await page.getByText('Zaloguj się do helpdesku', { exact: true }).first().waitFor({ state: 'visible' });
        // The step's page (media.markdown, "%walkthrough.signIn.media%" in the manifest) is drawn
        // in a webview: its text is in one of the page's frames.
        const polishPage = 'Helpdesk Bridge potrzebuje dwóch rzeczy';
        const deadline = Date.now() + limitMs('uiReaction');
        let found = false;
        while (!found && Date.now() < deadline) {
          for (const frame of page.frames()) {
            const text = await frame
              .locator('body')
              .innerText({ timeout: limitMs('uiProbe') })
              .catch(() => '');
            if (text.includes(polishPage)) found = true;
          }
          if (!found) await page.waitForTimeout(250);
        }
        assert.ok(found, `the walkthrough's first page says "${polishPage}" (media/walkthrough/pl/signIn.md)`);
        await wb.parkMouse();
        await screenshot('pl-walkthrough.png');
      },
    },
  ];
}
