import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { postIdOfBranch } from '../../src/branch/branchNames';
import type { GitRepository } from '../../src/code/gitApi';
import { readSettings } from '../../src/settings';
import { CommitMessages } from '../../src/branch/commitMessages';
import { EventEmitter, fake, Uri } from './fakeVscode';

/**
 * The Git API's input box as the extension host has it: `value` is the host's copy; `shown` is
 * what the Source Control view shows. The view's own text (a message restored at the repository's
 * opening) reaches the host a moment later (`arrives`); every write goes to the view.
 */
function box(shown: string) {
  const state = { host: '', shown, writes: [] as string[] };
  return {
    state,
    arrives() {
      state.host = state.shown;
    },
    get value() {
      return state.host;
    },
    set value(v: string) {
      state.writes.push(v);
      state.host = v;
      state.shown = v;
    },
  };
}

function rig(branch: string, inputBox: ReturnType<typeof box>) {
  const changed = new EventEmitter<void>();
  const head = { name: branch, commit: 'c1' };
  const repository = {
    rootUri: Uri.from({ scheme: 'file', path: '/r' }),
    state: { HEAD: head, indexChanges: [], workingTreeChanges: [] },
    inputBox,
  } as unknown as GitRepository;
  const branchPosts = {
    onDidChange: changed.event,
    repositories: () => [repository],
    postOf: (r: GitRepository) => {
      const { branchNameTemplate, referencePrefix } = readSettings();
      const postId = postIdOfBranch(r.state.HEAD!.name!, { template: branchNameTemplate, prefix: referencePrefix });
      return postId === undefined ? undefined : { postId, branch: r.state.HEAD!.name!, repository: r };
    },
  };
  /** Made with the first sight already over (the wait is its own test). */
  const start = async (firstSightMs = 0) => {
    const messages = new CommitMessages(branchPosts, firstSightMs);
    await new Promise((resolve) => setTimeout(resolve, firstSightMs + 5));
    return messages;
  };
  return { head, start, fire: () => changed.fire() };
}

describe("the commit message box on a post's branch", () => {
  beforeEach(() => fake.reset());

  it("made before Git's branches have started (at activation), it reads nothing, not even the settings", () => {
    const changed = new EventEmitter<void>();
    const messages = new CommitMessages({ onDidChange: changed.event, repositories: () => [], postOf: () => undefined });
    changed.fire();
    assert.equal(fake.configurationReads, 0);
    messages.dispose();
  });

  it("starts with the reference on a post's branch, and again after a commit, only while empty", async () => {
    const input = box('');
    const { head, start, fire } = rig('hd-5-fix', input);
    const messages = await start();
    assert.equal(input.value, '#5: ');
    input.value = '';
    fire();
    assert.equal(input.value, '', 'emptied by the person: not filled again on the same commit');
    head.commit = 'c2';
    fire();
    assert.equal(input.value, '#5: ', 'filled after a commit');
    input.value = 'My words';
    head.name = 'hd-6-other';
    fire();
    assert.equal(input.value, 'My words', 'typed text kept');
    messages.dispose();
  });

  it('on a branch that names no post, the box is never written to', async () => {
    const input = box('WIP: my words from before the reload');
    input.arrives();
    const { start, fire, head } = rig('main', input);
    const messages = await start();
    head.name = 'release-2024';
    fire();
    assert.deepEqual(input.state.writes, []);
    messages.dispose();
  });

  it('a repository seen for the first time is left alone until its restored message has come back', async () => {
    const input = box('WIP: restored by VS Code');
    const { start } = rig('hd-5-fix', input);
    const waiting = start(50);
    assert.deepEqual(input.state.writes, [], 'not written at first sight');
    input.arrives();
    const messages = await waiting;
    assert.deepEqual(input.state.writes, [], 'the restored message is kept');
    assert.equal(input.state.shown, 'WIP: restored by VS Code');
    messages.dispose();
  });

  it('what it put there follows the prefix and the templates, and is taken back when the branch names no post', async () => {
    const input = box('');
    const { start, fire } = rig('hd-5-fix', input);
    const messages = await start();
    assert.equal(input.value, '#5: ');
    fake.config.set('helpdesk.referencePrefix', 'HD-');
    fire(); // BranchPosts fires on a change of helpdesk.referencePrefix
    assert.equal(input.value, 'HD-5: ');
    fake.config.set('helpdesk.commitMessageTemplate', '[{reference}] ');
    fake.configurationChanged.fire({ affectsConfiguration: (key: string) => key === 'helpdesk.commitMessageTemplate' });
    assert.equal(input.value, '[HD-5] ');
    fake.config.set('helpdesk.referencePrefix', '');
    fake.config.set('helpdesk.branchNameTemplate', 'feature/{id}');
    fire();
    assert.equal(input.value, '', 'the branch names no post under the new template');
    messages.dispose();
  });
});

describe('a commit message template of spaces only', () => {
  beforeEach(() => fake.reset());

  it('writes nothing into an empty box', async () => {
    fake.config.set('helpdesk.commitMessageTemplate', '   ');
    const input = box('');
    const { start, fire, head } = rig('hd-5-fix', input);
    const messages = await start();
    head.commit = 'c2';
    fire();
    assert.deepEqual(input.state.writes, []);
    messages.dispose();
  });
});
