// The tests' time limits come from test/limits.ts alone: a limit written as a number somewhere
// else in the launchers, the suite, the UI tests or the bench is a budget nobody measured.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { GUARD_FACTOR, guardMs, limitMs, nearLimit, patience, QUIET_MS } from '../limits';

const ROOT = join(__dirname, '..', '..');
/** Where limits are set: everything under test/ but the unit tests (which guard the work they time with guardMs) and the stand-in. */
const FOLDERS = ['test/codeServer', 'test/integration', 'test/ui', 'test/bench', 'test/agent'];

/** A time limit written as a number: Playwright's and mocha's options, deadlines, the runners' own. */
const NUMBER_LIMITS = [
  /\btimeout: \d/,
  /\btimeoutMs(?:: | = )\d/,
  /\bthis\.timeout\(/,
  /\bsetDefaultTimeout\(\d/,
  /\bDate\.now\(\) \+ \d/,
  /\brejectAfter\(\d/,
  /\bdelay\(\d/,
];

function sources(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('time limits in the tests', () => {
  it('are taken from test/limits.ts, never written as a number where they are used', () => {
    const found: string[] = [];
    for (const file of FOLDERS.flatMap(sources)) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (NUMBER_LIMITS.some((pattern) => pattern.test(line))) found.push(`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
        });
    }
    assert.deepEqual(found, [], 'write the limit as limitMs(...) of test/limits.ts, with its quiet figure there');
  });

  it('the scan sees a limit written as a number', () => {
    const written = [
      "await row.waitFor({ state: 'visible', timeout: 20_000 });",
      'this.timeout(60_000);',
      'const deadline = Date.now() + 15_000;',
    ];
    for (const line of written)
      assert.ok(
        NUMBER_LIMITS.some((pattern) => pattern.test(line)),
        line,
      );
    assert.ok(!NUMBER_LIMITS.some((pattern) => pattern.test("waitFor({ state: 'visible', timeout: limitMs('uiReaction') })")));
  });

  it('each is at least three times its quiet figure, and HELPDESK_TEST_PATIENCE only ever adds to it', () => {
    assert.ok(GUARD_FACTOR >= 3);
    for (const what of Object.keys(QUIET_MS) as (keyof typeof QUIET_MS)[]) assert.ok(limitMs(what) >= 3 * QUIET_MS[what], what);
    assert.equal(patience(undefined), 1);
    assert.equal(patience(''), 1);
    assert.equal(patience('2.5'), 2.5);
    for (const bad of ['0.5', '0', '-1', 'abc', 'Infinity', '1e9']) assert.throws(() => patience(bad), /HELPDESK_TEST_PATIENCE/, bad);
    assert.equal(guardMs(20), 20 * GUARD_FACTOR);
  });

  it('a run that took over a third of its limit is said to be near it', () => {
    assert.equal(nearLimit(100, 300), false);
    assert.equal(nearLimit(101, 300), true);
  });
});
