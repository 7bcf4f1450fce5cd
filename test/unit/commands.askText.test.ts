import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { askText } from '../../src/commands/prompts';
import { fake, FakeInputBox, window } from './fakeVscode';

/**
 * An input box whose hide is told when the window has done it, as the workbench's is: across the
 * connection, after the window's next frames. `closeNow()` is the window catching up.
 */
class BoxHiddenLater extends FakeInputBox {
  private hiding: (() => void) | undefined;
  override hide(): void {
    this.hiding ??= () => super.hide();
  }
  closeNow(): void {
    this.hiding?.();
  }
}

const ask = () => askText({ title: 'Report Bug', prompt: 'Title', value: 'Crash', editorTooltip: 'Write in an Editor' });
const settledNow = async (answer: Promise<unknown>) => {
  let settled = false;
  void answer.then(() => (settled = true));
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
  return settled;
};

describe('askText', () => {
  const createInputBox = window.createInputBox;
  let box: BoxHiddenLater;
  beforeEach(() => {
    fake.reset();
    window.createInputBox = () => (box = new BoxHiddenLater());
  });
  afterEach(() => (window.createInputBox = createInputBox));

  it('answers at Enter, without waiting for the window to say the box is gone', async () => {
    const answer = ask();
    box.accept('Crash on start');
    assert.equal(await settledNow(answer), true, 'answered before the hide was told');
    assert.deepEqual(await answer, { action: 'accept', value: 'Crash on start' });
    box.closeNow();
    assert.deepEqual(await answer, { action: 'accept', value: 'Crash on start' }, 'the hide told after changes nothing');
  });

  it('answers at the editor button at once too, with what was typed', async () => {
    const answer = ask();
    box.value = 'Half a title';
    (box as unknown as { triggered: { fire(button: unknown): void } }).triggered.fire(box.buttons[0]);
    assert.equal(await settledNow(answer), true);
    assert.deepEqual(await answer, { action: 'editor', value: 'Half a title' });
  });

  it('a box closed with Escape answers nothing, once the window says it is gone; a value that does not validate is not an answer', async () => {
    const answer = askText({ title: 'T', prompt: 'P', editorTooltip: 'E', validate: (value) => (value ? undefined : 'A title, please') });
    box.accept('');
    assert.equal(box.validationMessage, 'A title, please');
    assert.equal(await settledNow(answer), false, 'still asking');
    box.hide();
    box.closeNow();
    assert.equal(await answer, undefined);
  });
});
