import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { type StandIn } from '../server';
import { inLanguage } from './fakeVscode';
import { filed, never, writeToolsSuite, type ToolRig } from './toolRig';

/*
 * What the person is asked before an agent's write is in VS Code's display language, with the
 * title and content as sent; what the agent is answered stays in English, its times too.
 */

const polish = JSON.parse(readFileSync(join(__dirname, '..', '..', 'l10n', 'bundle.l10n.pl.json'), 'utf8'));

describe("the write tools' questions in Polish", () => {
  const suite = writeToolsSuite('hb-wpl-');
  let server: StandIn, r: ToolRig;
  beforeEach(() => void ({ server, r } = suite));

  it('the question is Polish; the answer, asked again after the post was filed, English', async () => {
    const input = { title: 'Eksport się poddaje', description: 'Po jednym przekroczeniu czasu.' };
    await inLanguage('pl', polish, async () => {
      const asked = await r.tools.confirmation('helpdesk_createTask', input, never);
      assert.ok(asked);
      assert.equal(asked.title, 'Utworzyć zadanie w helpdesku?');
      assert.match(asked.message, /^Zadanie w `[^`]+`\. Zostanie zapisane jako szkic/);
      assert.ok(asked.message.includes('Tytuł, tak jak zostanie wysłany:') && asked.message.includes(input.title), asked.message);
      assert.match(await r.tools.write('helpdesk_createTask', input, never), /^Task #\d+ created\./);

      // The same intent again: the person is asked whether to answer with the post filed, in Polish.
      const again = await r.tools.confirmation('helpdesk_createTask', input, never);
      assert.ok(again);
      assert.match(again.title, /^Odpowiedzieć zgłoszeniem #\d+\?$/);
      assert.match(again.message, /zgłoszono z tym tytułem przed chwilą z VS Code/);
      const answer = await r.tools.write('helpdesk_createTask', input, never);
      assert.match(answer, /was filed with this intent just now from VS Code/, answer);
    });
    assert.equal(filed(server).length, 1, 'filed once');
  });
});
