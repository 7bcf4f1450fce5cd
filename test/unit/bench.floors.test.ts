import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { floorEnv, floorLabel, readFloors } from '../bench/floors';
import { reportBugFloor } from '../bench/report';

describe('npm run bench: which floor it pairs against', () => {
  it('is the default floor unless told otherwise: Open Post in a text document, Report Bug one bare POST', () => {
    const floors = readFloors({});
    assert.deepEqual(floors, { post: 'text', bug: 'bare' });
    assert.equal(floorLabel(floors), 'Floor');
    assert.deepEqual(floorEnv(floors), { HELPDESK_FLOOR_OPEN_POST: 'text', HELPDESK_FLOOR_REPORT_BUG: 'bare' });
    assert.deepEqual(readFloors({ 'post-floor': 'text', 'bug-floor': 'bare', against: 'other.vsix' }), floors);
  });

  it('with --bug-floor git, asks Git before its POST, and the report names it', () => {
    const floors = readFloors({ 'bug-floor': 'git' });
    assert.deepEqual(floors, { post: 'text', bug: 'git' });
    assert.equal(floorLabel(floors), 'Floor (Git)');
    assert.equal(floorEnv(floors).HELPDESK_FLOOR_REPORT_BUG, 'git');
    assert.equal(floorLabel(readFloors({ 'post-floor': 'webview', 'bug-floor': 'git' })), 'Floor (webview, Git)');
    assert.equal(floorLabel(readFloors({ 'post-floor': 'webview' })), 'Floor (webview)');
  });

  it('refuses a floor it does not know, and a floor of its own beside --against', () => {
    assert.throws(() => readFloors({ 'bug-floor': 'Git' }), /^Error: --bug-floor is bare or git, not Git\.$/);
    assert.throws(() => readFloors({ 'post-floor': 'html' }), /^Error: --post-floor is text or webview, not html\.$/);
    assert.throws(() => readFloors({ 'bug-floor': 'git', against: 'other.vsix' }), /--bug-floor is for the floor, not with --against/);
    assert.throws(() => readFloors({ 'post-floor': 'webview', against: 'other.vsix' }), /--post-floor is for the floor/);
  });

  it("says in What is timed what the floor's Report Bug asked of Git", () => {
    assert.equal(reportBugFloor({}), '');
    const git = reportBugFloor({ bugFloorGit: true });
    assert.match(git, /^\n {4}The floor here \(--bug-floor git\) asks the Git extension's API/);
    assert.match(git, /the file at that\s+commit/);
    assert.match(git, /which remote branches\s+do/);
    assert.match(git, /waited for before its POST\.$/);
  });
});
