import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { branchNameProblem, postIdOfBranch, proposeBranchName, safeBranchName, titleWords, typedAsRef } from '../../src/branch/branchNames';
import { MAX_TEMPLATE_CHARS } from '../../src/settings';
import { hostileText } from './hostile';
import { guardMs } from '../limits';

/** Git's own answer: does it take `name` as a branch name? */
function gitTakes(name: string): boolean {
  try {
    execFileSync('git', ['check-ref-format', '--branch', name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const post = (id: number, title: string) => ({ id, title });

describe('the branch name proposed for a post', () => {
  it('is the default template with the title in lower-case words joined by -', () => {
    assert.equal(proposeBranchName('', post(123, 'Login fails on Safari 17!')), 'hd-123-login-fails-on-safari-17');
    assert.equal(proposeBranchName('hd-{id}-{title}', post(7, '  Crash   in  export ')), 'hd-7-crash-in-export');
    assert.equal(proposeBranchName('feature/{id}_{title}', post(9, 'Fix it')), 'feature/9_fix-it');
  });

  it('makes hostile titles safe: slashes, dots, .., @{, spaces, emoji, accents', () => {
    assert.equal(proposeBranchName('', post(1, 'a/b\\c..d @{upstream} ~^:?*[ e')), 'hd-1-a-b-c-d-upstream-e');
    assert.equal(proposeBranchName('', post(2, 'Café 🚀 crashes 😱 déjà vu')), 'hd-2-cafe-crashes-deja-vu');
    assert.equal(proposeBranchName('', post(3, '....lock')), 'hd-3-lock');
    assert.equal(proposeBranchName('', post(4, 'Ошибка входа')), 'hd-4-ошибка-входа');
  });

  it('carries at most 50 characters of the title, cut between words', () => {
    const name = proposeBranchName('', post(5, 'word '.repeat(60)));
    assert.equal(name, `hd-5-${'word-'.repeat(9)}word`);
    assert.ok(titleWords('x'.repeat(300)).length === 50);
    assert.ok(titleWords('word '.repeat(60)).length <= 50);
  });

  it('leaves no dangling separator for a title with no words', () => {
    assert.equal(proposeBranchName('', post(6, '🚀🚀 !!! ...')), 'hd-6');
    assert.equal(proposeBranchName('', post(6, '')), 'hd-6');
    assert.equal(proposeBranchName('{title}', post(6, '')), '6', 'a template without {id} gets one');
  });

  it('strips .lock and trailing separators until none is left', () => {
    assert.equal(proposeBranchName('hd-{id}.lock-', post(5, 'x')), 'hd-5');
    assert.equal(safeBranchName('a.lock-.lock.'), 'a');
    assert.ok(gitTakes(proposeBranchName('hd-{id}.lock-', post(5, ''))));
  });

  it('keeps the marks of scripts other than Latin', () => {
    assert.equal(titleWords('ガイド'), 'ガイド');
    assert.equal(titleWords('हिन्दी पाठ'), 'हिन्दी-पाठ');
  });

  it('makes hostile templates safe too', () => {
    assert.equal(proposeBranchName('../{id}//x.lock/', post(8, 'T')), '8/x');
    assert.equal(proposeBranchName('-{id}.', post(8, 'T')), '8');
    assert.equal(proposeBranchName('@', post(8, 'T')), '@-8');
    assert.ok(gitTakes('@-8'));
  });

  it('is always a name Git takes (checked by git check-ref-format)', () => {
    fc.assert(
      fc.property(
        fc.oneof(hostileText(30), fc.string({ maxLength: 300 }), fc.constant('x'.repeat(300))),
        fc.oneof(
          fc.constant(''),
          fc.constant('hd-{id}-{title}'),
          hostileText(12).map((t) => `${t}{id}${t}{title}`),
        ),
        fc.integer({ min: 1, max: 2 ** 40 }),
        (title, template, id) => {
          const name = proposeBranchName(template, post(id, title));
          assert.equal(branchNameProblem(name), undefined, name);
          assert.ok(gitTakes(name), `git refuses ${JSON.stringify(name)}`);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('says why a typed name is refused, as Git would', () => {
    for (const name of [
      '',
      'a b',
      'a..b',
      'a@{b',
      '-a',
      'a/',
      '/a',
      'a//b',
      'a.',
      '.a',
      'a/.b',
      'a.lock',
      'a/b.lock/c',
      'a~1',
      'a^',
      'a:b',
      'a?',
      'a*',
      'a[b',
      'a\\b',
    ]) {
      assert.notEqual(branchNameProblem(name), undefined, name);
      assert.equal(gitTakes(name), false, `git takes ${JSON.stringify(name)}`);
    }
    assert.notEqual(
      branchNameProblem('@'),
      undefined,
      '"@" is HEAD (git branch refuses it; check-ref-format --branch reads it as HEAD\'s branch)',
    );
    for (const name of ['hd-1-x', 'feature/HD-12', 'a.b', 'ошибка', 'a@b']) {
      assert.equal(branchNameProblem(name), undefined, name);
      assert.equal(gitTakes(name), true, name);
    }
  });
});

describe('a branch name typed as a full ref (issue 47): what Start Work says is what Git does', () => {
  it('refs/heads/feature, refs/remotes/origin/x, refs/tags/v1: Git takes each, as the branch of that very name, as said', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hb-refs-'));
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd: dir, encoding: 'utf8' }).trim();
    try {
      git('init', '-q', '-b', 'main');
      git('commit', '-q', '--allow-empty', '-m', 'First');
      git('branch', 'feature');
      for (const name of ['refs/heads/feature', 'refs/remotes/origin/x', 'refs/tags/v1', 'refs/heads/HEAD']) {
        assert.equal(branchNameProblem(name), undefined, `the box takes ${name}`);
        assert.ok(gitTakes(name), `git check-ref-format --branch takes ${name}`);
        const said = typedAsRef(name);
        assert.ok(said, `the box says what Git makes of ${name}`);
        git('checkout', '-q', '-b', name);
        assert.equal(git('symbolic-ref', 'HEAD'), said.full, `git checkout -b ${name}`);
        git('checkout', '-q', 'main');
      }
      assert.deepEqual(typedAsRef('refs/heads/feature'), { full: 'refs/heads/refs/heads/feature', meant: 'feature' });
      assert.equal(typedAsRef('feature'), undefined);
      assert.equal(typedAsRef('Refs/heads/feature'), undefined, 'refs are named with case: that one is a plain name');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the post a branch is about', () => {
  const options = { template: 'hd-{id}-{title}', prefix: 'HD-' };

  it("reads the template's shape, with or without the title", () => {
    assert.equal(postIdOfBranch('hd-123-login-fails', options), 123);
    assert.equal(postIdOfBranch('hd-123', options), 123);
    assert.equal(postIdOfBranch('HD-123-Login', { template: 'hd-{id}-{title}' }), 123);
    assert.equal(postIdOfBranch('feature/9_fix-it', { template: 'feature/{id}_{title}' }), 9);
  });

  it('reads the short form as a part of the name', () => {
    assert.equal(postIdOfBranch('HD-45', { prefix: 'HD-' }), 45);
    assert.equal(postIdOfBranch('feature/HD-45-login', { prefix: 'HD-' }), 45);
    assert.equal(postIdOfBranch('bugfix/hd-46', { template: 'x-{id}', prefix: 'HD-' }), 46);
  });

  it('finds none in look-alikes', () => {
    for (const branch of [
      'main',
      'release-2024',
      'v1.2.3',
      'hd-',
      'hd-0',
      'hd-012-x',
      'hd-12x',
      'xhd-12',
      'feature/xHD-12',
      'HD-12x',
      'hd-1234567890123456',
      'fix-HD-12',
      'chd-5',
    ]) {
      assert.equal(postIdOfBranch(branch, options), undefined, branch);
    }
    assert.equal(postIdOfBranch('HD-12', { template: 'hd-{id}-{title}' }), 12, 'the template shape matches whatever the prefix');
    assert.equal(postIdOfBranch('feature/HD-12', { template: 'hd-{id}-{title}' }), undefined, 'no prefix: no short form');
    assert.equal(postIdOfBranch('anything-5', { template: 'no id here' }), undefined);
  });

  it('reads back every name it proposes, whatever the template and the title', () => {
    const templates = [
      '',
      'hd-{id}-{title}',
      'feature/{id}-{title}',
      'feature/{id}/{title}',
      '{title}-{id}',
      '{id} {title}',
      'hd-{id}{title}',
      '{title}{id}',
      'feature/{title}',
      'issue-{id}',
      'x',
      '{id}-{title}-{title}',
      'a..b/{id}.lock-{title}',
      'users/me/{id}_{title}',
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...templates),
        fc.oneof(hostileText(40), fc.constantFrom('', '🚀', '2024 outage', '123', 'lock')),
        fc.integer({ min: 1, max: 2 ** 40 }),
        (template, title, id) => {
          const name = proposeBranchName(template, post(id, title));
          assert.equal(postIdOfBranch(name, { template }), id, `${template} → ${name}`);
          assert.equal(postIdOfBranch(name, { template, prefix: 'HD-' }), id, `${template} → ${name}, with a prefix`);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a title glued to the id is never read as more of the id', () => {
    assert.equal(proposeBranchName('hd-{id}{title}', post(7, '2024 outage')), 'hd-7-2024-outage');
    assert.equal(postIdOfBranch('hd-7-2024-outage', { template: 'hd-{id}{title}' }), 7);
  });

  it('a template without {id} still names the post', () => {
    assert.equal(proposeBranchName('feature/{title}', post(5, 'Fix login')), 'feature/5-fix-login');
    assert.equal(proposeBranchName('wip', post(5, 'Fix login')), 'wip-5');
  });

  it('reads the short form after a prefix with a slash', () => {
    assert.equal(postIdOfBranch('GH/12', { template: 'hd-{id}-{title}', prefix: 'GH/' }), 12);
    assert.equal(postIdOfBranch('me/GH/12-x', { prefix: 'GH/' }), 12);
    assert.equal(postIdOfBranch('xGH/12', { prefix: 'GH/' }), undefined);
  });

  it('returns at once for long names and many {title}s (no backtracking blow-up)', () => {
    // Each {title} used to be an optional group of its own: this name took minutes to refuse.
    const template = `{id}${'-{title}'.repeat(6)}`;
    const started = Date.now();
    for (const branch of [`1${'-a'.repeat(120)}/`, `1${'-a'.repeat(5000)}/`]) assert.equal(postIdOfBranch(branch, { template }), undefined);
    assert.ok(Date.now() - started < guardMs(20), 'a hang guard, not a speed target');
  });
});

describe('a hostile template from a cloned repository', () => {
  // The templates: 100 KB of `.-` (a quadratic strip of trailing separators, a RegExp too
  // large) and 40 KB of `a.` (a stack overflow compiling the template).
  const hostile = [
    'a' + '.-'.repeat(50000) + 'x{id}',
    'a.'.repeat(20000) + 'x{id}',
    'a' + '.lock-'.repeat(20000) + '{id}',
    '{id}' + '-{title}'.repeat(20000),
  ];

  /** Each call is pure work (at most 15 ms quiet, 100 KB or 1 MB): a hang guard far above its cost, far below the seconds it took. */
  function quick<T>(what: string, run: () => T, boundMs = guardMs(15)): T {
    const started = performance.now();
    const result = run();
    const took = performance.now() - started;
    assert.ok(took < boundMs, `${what} took ${Math.round(took)} ms`);
    return result;
  }

  it('proposes a name Git takes, and reads it back, each at once, never throwing', () => {
    for (const template of hostile) {
      const name = quick('proposing', () => proposeBranchName(template, post(5, 'Fix login')));
      assert.equal(branchNameProblem(name), undefined, name.slice(0, 80));
      for (const branch of [name, 'hd-5-fix', 'main', `a${'.-'.repeat(100)}x5`])
        quick('reading', () => postIdOfBranch(branch, { template, prefix: 'HD-' }));
      quick('making safe', () => safeBranchName(template));
    }
  });

  it('a name longer than a branch of a post could be is read by the short form only', () => {
    assert.equal(postIdOfBranch(`HD-5-${'x'.repeat(300)}`, { template: 'a.'.repeat(20000) + 'x{id}', prefix: 'HD-' }), 5);
  });

  it('strips trailing separators and .lock in linear time', () => {
    const name = quick('making safe', () => safeBranchName('a' + '.-'.repeat(500000) + 'x'), guardMs(20));
    assert.equal(name, 'a' + '.-'.repeat(500000) + 'x');
    assert.equal(
      quick('making safe', () => safeBranchName('a' + '.lock-'.repeat(170000)), guardMs(20)),
      'a',
    );
    assert.equal(
      quick('making safe', () => safeBranchName('a' + '-.'.repeat(500000)), guardMs(20)),
      'a',
    );
  });
});

const ms = (work: () => unknown): number => {
  const start = performance.now();
  work();
  return performance.now() - start;
};

/** Templates as a cloned repository's settings may hold them, within the setting's bound. */
const templateText = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '{id}',
        '{title}',
        '{ID}',
        '{id',
        '-',
        '.',
        '/',
        '_',
        '..',
        '.lock',
        ' ',
        '@{',
        'hd',
        '0',
        '1',
        'İ',
        'ß',
        '\u212A',
        '\uE000',
        '\uE001',
      ),
      fc.string({ maxLength: 4, unit: 'grapheme' }),
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join('').slice(0, MAX_TEMPLATE_CHARS));
const titleText = fc.oneof(
  fc.string({ maxLength: 80, unit: 'grapheme' }),
  fc.constantFrom('', '-', '2024 outage', '日本語 タイトル', 'İstanbul', '.lock', 'a'.repeat(300)),
);
const postId = fc.oneof(fc.integer({ min: 1, max: 99_999 }), fc.integer({ min: 1, max: 999_999_999_999_999 }));

describe("branch names from a repository's template", () => {
  it('every name proposed from a template the setting takes is a branch name Git takes, and reads back to its post', () => {
    fc.assert(
      fc.property(templateText, titleText, postId, (template, title, id) => {
        const name = proposeBranchName(template, { id, title });
        assert.equal(branchNameProblem(name), undefined, name);
        // Git keeps a branch in a file per part: a part over 255 bytes is "File name too long".
        for (const part of name.split('/')) assert.ok(Buffer.byteLength(part) <= 255, `part of ${Buffer.byteLength(part)} bytes`);
        assert.equal(postIdOfBranch(name, { template }), id, `${JSON.stringify(template)} → ${name}`);
      }),
      { numRuns: 2000 },
    );
  });

  it('a 200-character template of ids makes a name that names no post (the example the property finds)', () => {
    const template = '{id}-'.repeat(40);
    assert.equal(template.length, MAX_TEMPLATE_CHARS);
    const name = proposeBranchName(template, { id: 100_000, title: 'x' });
    assert.equal(postIdOfBranch(name, { template }), 100_000, `${name.length} characters`);
  });

  it('a template holding the private-use character the title is marked with reads back to another post', () => {
    // skeleton() marks {title} with U+E001 and {id} with U+E000, and never takes them out of the
    // template itself: '\uE001{id}' glues the title to the id, and the name reads as post #1.
    const template = '\uE001{id}';
    const name = proposeBranchName(template, { id: 11, title: '日本語 タイトル' });
    assert.equal(postIdOfBranch(name, { template }), 11, name);
  });

  it('held: {id} next to digits reads back; 1 MB templates of most shapes are linear', () => {
    for (const [template, id] of [
      ['1{id}', 7],
      ['{id}0', 5],
      ['{id}{id}', 12],
      ['0{id}1{title}', 30],
      ['{title}{id}', 4],
    ] as const) {
      const name = proposeBranchName(template, { id, title: '2024 outage' });
      assert.equal(postIdOfBranch(name, { template }), id, name);
    }
    for (const template of [
      'a' + '.-'.repeat(500_000) + 'x{id}',
      '{title}'.repeat(150_000),
      `{id}${'.lock'.repeat(200_000)}`,
      `x{id}${'-'.repeat(1e6)}{title}`,
      `{title}${'a.'.repeat(500_000)}{id}`,
    ]) {
      const took = ms(() => postIdOfBranch(proposeBranchName(template, { id: 7, title: 't' }), { template }));
      assert.ok(took < guardMs(60), `${took.toFixed(0)} ms`);
    }
  });
});
