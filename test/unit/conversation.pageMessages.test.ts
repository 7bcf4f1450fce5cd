import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_REPLY_CHARS, PAGE_ACTIONS, readPageMessage } from '../../src/conversation/pageMessages';

/* What the conversation page may ask (src/conversation/pageMessages.ts): a message is read into
 * its type where it enters, or dropped; it must name the panel's own post and account. */

const panel = { accountUrl: 'https://acme.example', postId: 12 };
const of = (fields: Record<string, unknown>) => ({ account: panel.accountUrl, post: panel.postId, ...fields });

describe('a message from the conversation page', () => {
  it('each kind, well formed, is read as itself', () => {
    assert.deepEqual(readPageMessage(of({ type: 'ready' }), panel), { type: 'ready' });
    assert.deepEqual(readPageMessage(of({ type: 'ready', reply: 'half' }), panel), { type: 'ready', reply: 'half' });
    assert.deepEqual(readPageMessage(of({ type: 'reply', text: 'Hi' }), panel), { type: 'reply', text: 'Hi' });
    assert.deepEqual(readPageMessage(of({ type: 'send', text: 'Hi' }), panel), { type: 'send', text: 'Hi' });
    assert.deepEqual(readPageMessage(of({ type: 'retry' }), panel), { type: 'retry' });
    assert.deepEqual(readPageMessage(of({ type: 'edit' }), panel), { type: 'edit' });
    assert.deepEqual(readPageMessage(of({ type: 'openLink', message: 0, link: 3 }), panel), { type: 'openLink', message: 0, link: 3 });
    assert.deepEqual(readPageMessage(of({ type: 'loadImages', message: 2 }), panel), { type: 'loadImages', message: 2 });
    assert.deepEqual(readPageMessage(of({ type: 'openPost', id: 7 }), panel), { type: 'openPost', id: 7 });
    for (const action of PAGE_ACTIONS) assert.deepEqual(readPageMessage(of({ type: 'action', action }), panel), { type: 'action', action });
  });

  it("another post's or another account's message is dropped, whatever it asks", () => {
    for (const other of [
      { post: 13 },
      { post: '12' },
      { account: 'https://acme.example/' },
      { account: 'https://ACME.example' },
      { account: 'https://evil.example' },
      { account: undefined },
      { post: undefined },
    ])
      assert.equal(readPageMessage({ ...of({ type: 'action', action: 'close' }), ...other }, panel), undefined, JSON.stringify(other));
  });

  it('a wrong shape is dropped: not an object, unknown kinds and fields, wrong types, sizes and numbers', () => {
    const bad: unknown[] = [
      null,
      undefined,
      'send',
      42,
      [of({ type: 'retry' })],
      Object.assign(Object.create({ inherited: true }), of({ type: 'retry' })),
      of({ type: 'run', command: 'workbench.action.terminal.new' }),
      of({ type: '__proto__' }),
      of({ type: 'toString' }),
      of({ type: 'retry', extra: 1 }),
      of({ type: 'send', text: 'x', command: 'y' }),
      of({ type: 'send' }),
      of({ type: 'send', text: 5 }),
      of({ type: 'send', text: 'x'.repeat(MAX_REPLY_CHARS + 1) }),
      of({ type: 'ready', reply: 5 }),
      of({ type: 'ready', reply: 'x'.repeat(MAX_REPLY_CHARS + 1) }),
      of({ type: 'openLink', message: 0 }),
      of({ type: 'openLink', message: 0, link: -1 }),
      of({ type: 'openLink', message: 0.5, link: 0 }),
      of({ type: 'openLink', message: 0, link: 1e9 }),
      of({ type: 'openLink', message: 0, link: 'https://evil.example' }),
      of({ type: 'openLink', message: Number.NaN, link: 0 }),
      of({ type: 'loadImages', message: -1 }),
      of({ type: 'openPost', id: 0 }),
      of({ type: 'openPost', id: 12 }),
      of({ type: 'openPost', id: 1.5 }),
      of({ type: 'openPost', id: 2 ** 60 }),
      of({ type: 'action', action: 'discardAll' }),
      of({ type: 'action', action: 'constructor' }),
      of({ type: 'action' }),
    ];
    for (const value of bad) assert.equal(readPageMessage(value, panel), undefined, JSON.stringify(value)?.slice(0, 120));
  });

  it('a reply of the longest size is taken whole', () => {
    const text = 'ą'.repeat(MAX_REPLY_CHARS);
    assert.deepEqual(readPageMessage(of({ type: 'send', text }), panel), { type: 'send', text });
  });
});
