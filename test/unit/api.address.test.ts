import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AccountUrlError, apiSettingsLink, isLoopbackHost, parseAccountUrl, redact, tokenAccountPrefix, webLink } from '../../src/api';
import { guardMs } from '../limits';

describe('account address', () => {
  it('keeps an https address and drops trailing slashes', () => {
    assert.equal(parseAccountUrl('https://acme.example.com'), 'https://acme.example.com');
    assert.equal(parseAccountUrl('  https://acme.example.com///  '), 'https://acme.example.com');
  });

  it('assumes https when no scheme is typed', () => {
    assert.equal(parseAccountUrl('acme.example.com'), 'https://acme.example.com');
  });

  it('cuts a pasted app address back to the account', () => {
    assert.equal(parseAccountUrl('https://acme.example.com/app/posts/12?tab=1#c'), 'https://acme.example.com');
    assert.equal(parseAccountUrl('https://acme.example.com/app.json'), 'https://acme.example.com');
    assert.equal(parseAccountUrl('https://acme.example.com/app'), 'https://acme.example.com');
    assert.equal(parseAccountUrl('https://proxy.example.com/helpdesk/app/clients'), 'https://proxy.example.com/helpdesk');
  });

  it('keeps a port and lower-cases the host', () => {
    assert.equal(parseAccountUrl('https://ACME.example.com:8443/'), 'https://acme.example.com:8443');
  });

  it('allows plain http only on loopback', () => {
    assert.equal(parseAccountUrl('http://127.0.0.1:3000/'), 'http://127.0.0.1:3000');
    assert.equal(parseAccountUrl('http://localhost:3000'), 'http://localhost:3000');
    assert.equal(parseAccountUrl('http://127.8.9.10'), 'http://127.8.9.10');
    assert.equal(parseAccountUrl('http://[::1]:3000'), 'http://[::1]:3000');
    for (const address of ['http://acme.example.com', 'http://10.0.0.5', 'http://localhost.example.com', 'http://128.0.0.1']) {
      const host = new URL(address).host;
      assert.throws(
        () => parseAccountUrl(address),
        (e: unknown) => e instanceof AccountUrlError && e.problem === 'plainHttp' && e.detail.host === host,
        address,
      );
    }
  });

  it('refuses other schemes, credentials and nonsense, saying which', () => {
    const problem = (input: string) => {
      try {
        parseAccountUrl(input);
        return undefined;
      } catch (error) {
        assert.ok(error instanceof AccountUrlError, String(error));
        return { problem: error.problem, ...error.detail };
      }
    };
    assert.deepEqual(problem('ftp://acme.example.com'), { problem: 'scheme', scheme: 'ftp:' });
    assert.deepEqual(problem('https://user:pw@acme.example.com'), { problem: 'credentials' });
    assert.deepEqual(problem('https://'), { problem: 'notAddress' });
    assert.deepEqual(problem('   '), { problem: 'empty' });
    assert.equal(problem('https://acme.example.com'), undefined);
    // A number is not an address, though the URL parser reads `42` as the host 0.0.0.42.
    assert.deepEqual(problem('42'), { problem: 'notAddress' });
    assert.deepEqual(problem('https://10.1'), { problem: 'notAddress' });
    assert.equal(problem('https://10.0.0.1:8443'), undefined, 'a whole IPv4 address is one');
    assert.equal(problem('http://127.0.0.1:3000'), undefined);
  });

  it('refuses a pasted token as an address, before anything is sent to it', () => {
    for (const input of [
      '0a1b2c3d4e5f60718293a4b5c6d7e8f9/acme',
      'https://0a1b2c3d4e5f60718293a4b5c6d7e8f9/acme',
      ' 0A1B2C3D4E5F60718293A4B5C6D7E8F9 ',
    ]) {
      assert.throws(
        () => parseAccountUrl(input),
        (error: unknown) => error instanceof AccountUrlError && error.problem === 'looksLikeToken',
        input,
      );
    }
    for (const input of ['acme.example.com', 'https://helpdesk', 'http://localhost:4000', 'https://a1b2c3.example.com/app/posts/1']) {
      assert.doesNotThrow(() => parseAccountUrl(input), input);
    }
  });

  it('refuses a pasted token whose secret is short or holds - or _, as typed or after the https:// or https://prefix. the box starts with', () => {
    const tokens = [
      'AbC123xyz/acme',
      'https://AbC123xyz/acme',
      'https://xy-12ab34cd/john_kowalsky',
      'https://Xy-12aB_34/acme/',
      'https://acme.AbC123xyz/acme',
      'https://acme.0a1b2c3d-4e5f',
      '0a1b2c3d-4e5f6071-8293a4b5',
      'https://AbCdEfGhIjKlMnOpQr',
      'https://ab_cd',
    ];
    for (const input of tokens) {
      assert.throws(
        () => parseAccountUrl(input),
        (error: unknown) => error instanceof AccountUrlError && error.problem === 'looksLikeToken',
        input,
      );
    }
    const addresses = [
      'https://helpdesk/acme',
      'https://server01',
      'https://helpdesk-server-01',
      'https://intranet-helpdesk-server',
      'https://HELPDESK',
      'https://server01:8443/acme',
      'https://john_kowalsky.example.com',
      'https://acme.example.com/app/posts/12',
      'https://10.0.0.5',
      'https://xn--80akhbyknj4f.xn--p1ai/helpdesk',
      'https://Acme.Example.Com',
    ];
    for (const input of addresses) assert.doesNotThrow(() => parseAccountUrl(input), input);
  });

  it('refuses a mistyped scheme, and says the address it meant', () => {
    const cases: [string, string][] = [
      ['https//acme.sugester.com', 'https://acme.sugester.com'],
      ['https:\\\\acme.sugester.com', 'https://acme.sugester.com'],
      ['https:\\acme.sugester.com/app/posts/3', 'https://acme.sugester.com'],
      ['https;//acme.sugester.com', 'https://acme.sugester.com'],
      ['https:/acme.sugester.com', 'https://acme.sugester.com'],
      ['HTTPS//acme.sugester.com', 'https://acme.sugester.com'],
      ['https:acme.sugester.com', 'https://acme.sugester.com'],
      ['http//localhost:3000', 'http://localhost:3000'],
      ['https://https//acme.sugester.com', 'https://acme.sugester.com'],
    ];
    for (const [input, meant] of cases) {
      assert.throws(
        () => parseAccountUrl(input),
        (e: unknown) => e instanceof AccountUrlError && e.problem === 'schemeTypo' && e.detail.meant === meant,
        input,
      );
    }
    assert.throws(
      () => parseAccountUrl('http//acme.example.com'),
      (e: unknown) => e instanceof AccountUrlError && e.problem === 'schemeTypo' && e.detail.meant === undefined,
      'what it meant is refused too (plain http): no address to propose',
    );
  });

  it('refuses a host that is no plausible host name', () => {
    for (const input of [
      'https://acme..com',
      'https://-acme.com',
      'https://acme-.sugester.com',
      'https://ac;me.com',
      'https://acme.sugester.com!',
      'https://ac(me).com',
      'https://acme,sugester.com',
      `https://${'a'.repeat(64)}.com`,
      `https://${'abc.'.repeat(70)}com`,
      'https://https',
      'https://http:8443',
    ]) {
      assert.throws(
        () => parseAccountUrl(input),
        (e: unknown) => e instanceof AccountUrlError && (e.problem === 'host' || e.problem === 'notAddress'),
        input,
      );
    }
    for (const input of [
      'https://acme.sugester.com',
      'https://a-b.c-d.example',
      'https://john_kowalsky.example.com',
      'https://xn--80akhbyknj4f.xn--p1ai',
      'https://helpdesk',
      'https://10.0.0.5',
      'http://[::1]:3000',
      `https://${'a'.repeat(63)}.com`,
    ]) {
      assert.doesNotThrow(() => parseAccountUrl(input), input);
    }
  });

  it('tells loopback hosts apart', () => {
    assert.ok(isLoopbackHost('127.0.0.1'));
    assert.ok(isLoopbackHost('LOCALHOST'));
    assert.ok(!isLoopbackHost('192.168.1.1'));
  });
});

describe('links and tokens', () => {
  it('builds web app links from API paths', () => {
    assert.equal(webLink('https://acme.example.com', 'posts', 123), 'https://acme.example.com/app/posts/123');
    assert.equal(webLink('https://acme.example.com', 'clients', 45), 'https://acme.example.com/app/clients/45');
    assert.equal(apiSettingsLink('https://acme.example.com'), 'https://acme.example.com/app/account/api');
  });

  it('reads the account prefix after the last slash of a token', () => {
    assert.equal(tokenAccountPrefix('AbC123xyz/acme'), 'acme');
    assert.equal(tokenAccountPrefix('a/b/acme-2 '), 'acme-2');
    assert.equal(tokenAccountPrefix('AbC123xyz'), undefined);
    assert.equal(tokenAccountPrefix('AbC123xyz/'), undefined);
  });

  it("reads a prefix with an underscore (the vendor's plugin shows …/john_kowalsky), and the address it pre-fills is one", () => {
    const prefix = tokenAccountPrefix('AbC123xyz/john_kowalsky');
    assert.equal(prefix, 'john_kowalsky');
    assert.equal(parseAccountUrl(`https://${prefix}.example.com`), 'https://john_kowalsky.example.com');
  });

  it("redacts the token's secret part alone, and its encoded forms in any case", () => {
    const token = '0a1b2c3d4e5f60718293a4b5c6d7e8f9/acme';
    const secret = token.split('/')[0]!;
    for (const text of [
      `secret ${secret} echoed`,
      'lower-case 0a1b2c3d4e5f60718293a4b5c6d7e8f9%2facme',
      `upper-case ${secret.toUpperCase()}%2FACME`,
    ]) {
      const out = redact(text, [token]);
      assert.ok(!out.toLowerCase().includes(secret), out);
      assert.match(out, /<redacted>/);
    }
  });

  it('redacts a token raw, URL-encoded and as an api_token value', () => {
    const token = 's3cr3t+x/acme';
    const text = `a ${token} b ${encodeURIComponent(token)} c s3cr3t%2Bx%2Facme ?api_token=other&x=1 {"api_token":"zzz"}`;
    const out = redact(text, [token]);
    assert.ok(!out.includes('s3cr3t'), out);
    assert.ok(!out.includes('other') && !out.includes('zzz'), out);
    assert.match(out, /api_token=<redacted>&x=1/);
  });
});

const ms = (work: () => unknown): number => {
  const start = performance.now();
  work();
  return performance.now() - start;
};

const problemOf = (input: string): string => {
  try {
    parseAccountUrl(input);
    return 'accepted';
  } catch (error) {
    return error instanceof AccountUrlError ? error.problem : `threw ${String(error)}`;
  }
};

describe('the address box: what a person pastes or types', () => {
  it('a pasted address with a long run of slashes in its path is read in linear time', () => {
    // url.pathname.replace(/\/+$/, '') backtracks over the whole run at each slash: quadratic.
    const input = `https://acme.sugester.com/${'/'.repeat(50_000)}x`;
    const took = ms(() => parseAccountUrl(input));
    assert.ok(took < 200, `${took.toFixed(0)} ms for 50,000 slashes`);
  });

  it('a trailing dot names the same account as the address without it', () => {
    // Stored as is, `https://acme.sugester.com.` is a second account (tokens, news files, branch
    // records keyed apart) for the same helpdesk, and its Host header is one servers may refuse.
    assert.equal(parseAccountUrl('https://acme.sugester.com.'), parseAccountUrl('https://acme.sugester.com'));
  });

  it('held: upper-case schemes, IPv6 loopback, IDN hosts, credentials, ports, 1 MB', () => {
    assert.equal(parseAccountUrl('HTTPS://ACME.sugester.com'), 'https://acme.sugester.com');
    assert.equal(parseAccountUrl('http://[::1]:8080'), 'http://[::1]:8080');
    assert.equal(parseAccountUrl('https://bücher.example'), 'https://xn--bcher-kva.example');
    for (const input of ['https://user:pass@acme.com', 'user:s3cret@acme.com', 'https://:s3cret@acme.com']) {
      try {
        parseAccountUrl(input);
        assert.fail(`accepted ${input}`);
      } catch (error) {
        assert.ok(error instanceof AccountUrlError && error.problem === 'credentials', String(error));
        assert.ok(!/pass|s3cret/.test(error.message), 'the password is not in the message');
      }
    }
    assert.equal(problemOf('https://acme.com:99999'), 'notAddress');
    assert.equal(problemOf('https//acme.sugester.com'), 'schemeTypo');
    assert.equal(problemOf('http://[::ffff:127.0.0.1]'), 'plainHttp');
    for (const input of [
      'a'.repeat(1_000_000),
      `https://${'a'.repeat(1_000_000)}`,
      `https://acme.com/?${'x'.repeat(1_000_000)}`,
      `https://acme.com/${'a/'.repeat(500_000)}`,
    ]) {
      const took = ms(() => problemOf(input));
      assert.ok(took < guardMs(50), `${took.toFixed(0)} ms`);
    }
  });
});
