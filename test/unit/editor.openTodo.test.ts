import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type * as vscode from 'vscode';
import { openTodoAt } from '../../src/editor/openTodo';
import { fake } from './fakeVscode';

/** A one-line TypeScript document. */
const documentOf = (text: string) =>
  ({ lineCount: 1, languageId: 'typescript', lineAt: () => ({ text }) }) as unknown as vscode.TextDocument;

describe('the TODO light bulb: a comment that names a post needs no task', () => {
  beforeEach(() => {
    fake.reset();
    fake.config.set('helpdesk.accountUrl', 'https://first.example');
  });

  it("a TODO naming a post of this window's account, which the settings do not name, is not offered", () => {
    const line = documentOf('// TODO: see https://second.example/app/posts/12');
    assert.ok(openTodoAt(line, 0, { all: [] }), "without the window's account, the address is not a reference");
    assert.equal(
      openTodoAt(line, 0, { window: 'https://second.example', all: ['https://first.example', 'https://second.example'] }),
      undefined,
    );
  });

  it('a TODO naming a post of another account signed in to is not offered either; one naming none is', () => {
    const accounts = { window: 'https://first.example', all: ['https://first.example', 'https://second.example'] };
    assert.equal(openTodoAt(documentOf('// TODO: see https://second.example/app/posts/12'), 0, accounts), undefined);
    assert.ok(openTodoAt(documentOf('// TODO: handle errors'), 0, accounts));
  });
});
