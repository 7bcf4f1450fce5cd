import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Uri } from './fakeVscode';
import { accountOf, postOf, postUri } from '../../src/views/postUri';

/* The post document's URI names the whole account it was read from, never just a host. */

const ACME = 'https://proxy.example.com/acme';
const GLOBEX = 'https://proxy.example.com/globex';

describe('post URIs', () => {
  it('two accounts on one host (different paths, or schemes) name different documents, each resolved to its own account only', () => {
    const acme = postOf(postUri(42, ACME));
    const globex = postOf(postUri(42, GLOBEX));
    assert.equal(acme?.id, 42);
    assert.notEqual(postUri(42, ACME).toString(), postUri(42, GLOBEX).toString());
    assert.equal(accountOf(acme, ACME, [ACME, GLOBEX]), ACME);
    assert.equal(accountOf(globex!, ACME, [ACME, GLOBEX]), GLOBEX, "not the window's account on the same host");
    const local = postOf(postUri(1, 'http://localhost:3000'));
    assert.equal(accountOf(local!, 'https://localhost:3000', ['https://localhost:3000']), undefined, 'another scheme is another account');
  });

  it("a document from before several accounts (no account named) is the window's", () => {
    const old = postOf(Uri.from({ scheme: 'helpdesk-post', path: '/7.md' }) as never);
    assert.deepEqual(old, { id: 7 });
    assert.equal(accountOf(old, ACME, [ACME, GLOBEX]), ACME);
  });

  it('an account named that is not signed in to resolves to none; a crafted authority or query names no account', () => {
    const crafted = postOf(Uri.from({ scheme: 'helpdesk-post', authority: '[Fix](command:evil)', path: '/1.md' }) as never);
    assert.equal(crafted, undefined, 'an authority is never read');
    const other = postOf(Uri.from({ scheme: 'helpdesk-post', path: '/1.md', query: 'account=[x](command:evil)' }) as never);
    assert.ok(other);
    assert.equal(accountOf(other, ACME, [ACME]), undefined);
    assert.equal(postOf(Uri.from({ scheme: 'helpdesk-post', path: '/0.md' }) as never), undefined);
  });
});
