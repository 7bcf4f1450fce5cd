import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import { contentSecurityPolicy, conversationHtml, imageSources, makeNonce } from '../../src/conversation/pageHtml';
import { MAX_REPLY_CHARS } from '../../src/conversation/pageMessages';

/* The conversation page's HTML (src/conversation/pageHtml.ts), read as a browser reads it
 * (parse5): one script and one stylesheet, ours, inline by nonce; a policy that lets nothing else
 * in; no server text in the shell. */

type Element = DefaultTreeAdapterMap['element'];

function elements(html: string): Element[] {
  const found: Element[] = [];
  const walk = (node: DefaultTreeAdapterMap['parentNode']) => {
    for (const child of node.childNodes) {
      if ('tagName' in child) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(parse(html));
  return found;
}
const attr = (element: Element, name: string) => element.attrs.find((a) => a.name === name)?.value;
const text = (element: Element) =>
  element.childNodes
    .map((child) => ('value' in child ? child.value : ''))
    .join('')
    .trim();

const SHELL = {
  cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
  script: "document.body.dataset.started = 'yes';",
  style: 'main { color: var(--vscode-foreground); }',
  lang: 'pl',
  accountUrl: 'https://acme.example',
  postId: 12,
};

/** The policy's directives by name. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((part) => part[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describe('the conversation page', () => {
  it("has one script and one stylesheet, the page's own, inline with the nonce its policy names; a strict policy", () => {
    const nonce = makeNonce();
    const html = conversationHtml({ ...SHELL, nonce });
    const all = elements(html);
    const scripts = all.filter((e) => e.tagName === 'script');
    assert.equal(scripts.length, 1);
    assert.equal(attr(scripts[0]!, 'nonce'), nonce);
    assert.equal(attr(scripts[0]!, 'src'), undefined, 'nothing loaded');
    assert.equal(text(scripts[0]!), SHELL.script);
    const styles = all.filter((e) => e.tagName === 'style');
    assert.equal(styles.length, 1);
    assert.equal(attr(styles[0]!, 'nonce'), nonce);
    assert.equal(text(styles[0]!), SHELL.style);
    assert.equal(all.filter((e) => e.tagName === 'link').length, 0, 'no file loaded');
    const metas = all.filter((e) => e.tagName === 'meta' && attr(e, 'http-equiv') === 'Content-Security-Policy');
    assert.equal(metas.length, 1, 'one policy');
    const policy = directives(attr(metas[0]!, 'content')!);
    assert.deepEqual(policy.get('default-src'), ["'none'"]);
    assert.deepEqual(policy.get('script-src'), [`'nonce-${nonce}'`]);
    assert.deepEqual(policy.get('style-src'), [`'nonce-${nonce}'`]);
    assert.deepEqual(policy.get('img-src'), [SHELL.cspSource]);
    for (const none of ['frame-src', 'connect-src', 'object-src', 'form-action', 'base-uri', 'font-src'])
      assert.deepEqual(policy.get(none), ["'none'"], none);
    assert.ok(!/unsafe-inline|unsafe-eval|\*/.test(attr(metas[0]!, 'content')!.replace(SHELL.cspSource, '')), 'nothing loose');
    // The policy comes first: nothing loads before it.
    assert.ok(html.indexOf('Content-Security-Policy') < html.indexOf('<style'));
    assert.equal(
      attr(
        all.find((e) => e.tagName === 'html')!,
        'lang',
      ),
      'pl',
    );
  });

  it('a nonce is new for every page, and of the nonce alphabet', () => {
    const nonces = new Set(Array.from({ length: 50 }, makeNonce));
    assert.equal(nonces.size, 50);
    for (const nonce of nonces) assert.match(nonce, /^[A-Za-z0-9+/]{22}==$/);
  });

  it('the account it is of is an attribute, escaped: a hostile address adds no element and no attribute', () => {
    const accountUrl = 'https://x.example/"><script>alert(1)</script><img src=x onerror=alert(2) \'';
    const html = conversationHtml({ ...SHELL, accountUrl, lang: 'en"><script>' });
    const all = elements(html);
    assert.equal(all.filter((e) => e.tagName === 'script').length, 1);
    assert.equal(all.filter((e) => e.tagName === 'img').length, 0);
    const main = all.find((e) => e.tagName === 'main')!;
    assert.equal(attr(main, 'data-account'), accountUrl, 'read back as written');
    assert.equal(attr(main, 'data-post'), '12');
    assert.equal(attr(main, 'data-reply-max'), String(MAX_REPLY_CHARS), 'the most a reply may hold, for its box');
    assert.equal(
      attr(
        all.find((e) => e.tagName === 'html')!,
        'lang',
      ),
      'en',
      'a language that is none is English',
    );
    assert.ok(!html.includes('<script>alert'));
  });

  it('allowed images stand in img-src by their exact address; nothing that breaks out of the policy', () => {
    const sources = imageSources([
      'https://cdn.example/logo.png?utm=1',
      'http://plain.example/a b.gif',
      "https://evil.example/x;script-src 'unsafe-inline'",
      'https://evil.example/y,default-src *',
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      'https://user:pw@creds.example/x.png',
      'not a url',
      'https://cdn.example/logo.png',
    ]);
    assert.deepEqual(sources, ['https://cdn.example/logo.png', 'http://plain.example/a%20b.gif', 'https://evil.example']);
    const policy = directives(contentSecurityPolicy(SHELL.cspSource, makeNonce(), sources));
    assert.deepEqual(policy.get('img-src'), [SHELL.cspSource, ...sources]);
    assert.deepEqual(policy.get('script-src')?.length, 1, 'no source added to scripts');
    assert.deepEqual([...policy.keys()].filter((name) => name === 'script-src' || name === 'default-src').length, 2, 'no directive added');
  });

  it("the page's own script and stylesheet go in as they are: the media files are taken", () => {
    const media = join(__dirname, '..', '..', 'media', 'conversation');
    const script = readFileSync(join(media, 'page.js'), 'utf8');
    const style = readFileSync(join(media, 'page.css'), 'utf8');
    const all = elements(conversationHtml({ ...SHELL, script, style }));
    assert.equal(text(all.find((e) => e.tagName === 'script')!), script.trim());
    assert.equal(text(all.find((e) => e.tagName === 'style')!), style.trim());
  });

  it('refuses a script or a stylesheet that would end its element, a source or a nonce that would break the page', () => {
    assert.throws(() => conversationHtml({ ...SHELL, script: 'let a = "</script><script>alert(1)</script>";' }));
    assert.throws(() => conversationHtml({ ...SHELL, script: 'let a = "<!--<script>";' }));
    assert.throws(() => conversationHtml({ ...SHELL, style: 'a{}</STYLE><script>alert(1)</script>' }));
    assert.throws(() => conversationHtml({ ...SHELL, nonce: "abc'; script-src *" }));
    assert.throws(() => contentSecurityPolicy("https://x.example; script-src 'unsafe-inline'", makeNonce()));
  });
});
