import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { integrationRuns } from '../integration/runs';

describe('npm run test:integration', () => {
  it('runs the suite, then its Restricted Mode run, each with the arguments given', () => {
    assert.deepEqual(integrationRuns([]), [[], ['--restricted']]);
    assert.deepEqual(integrationRuns(['--code-server', '4.139.1']), [
      ['--code-server', '4.139.1'],
      ['--restricted', '--code-server', '4.139.1'],
    ]);
  });

  it('runs only what a narrowed run names: one file, tests by title, or the Restricted Mode run', () => {
    assert.deepEqual(integrationRuns(['--file', 'reportBug']), [['--file', 'reportBug']]);
    assert.deepEqual(integrationRuns(['--file=reportBug', '--file', 'trees']), [['--file=reportBug', '--file', 'trees']]);
    assert.deepEqual(integrationRuns(['--grep', 'keeps the whole report']), [['--grep', 'keeps the whole report']]);
    assert.deepEqual(integrationRuns(['--restricted']), [['--restricted']]);
  });

  it('does not take a value that merely starts like a flag for one', () => {
    assert.deepEqual(integrationRuns(['--files-of', 'x']), [
      ['--files-of', 'x'],
      ['--restricted', '--files-of', 'x'],
    ]);
  });
});
