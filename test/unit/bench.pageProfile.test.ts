import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pageBusy, pageBusyText, type PageProfile } from '../bench/pageProfile';

/** A profile of the given samples, each `frames` from the root down, every sample 1 ms after the one before. */
function profileOf(samples: string[][]): PageProfile {
  const nodes: PageProfile['nodes'] = [{ id: 1, callFrame: { functionName: '(root)' }, children: [] }];
  const leaves = samples.map((frames) => {
    let parent = nodes[0]!;
    for (const name of frames) {
      const found = (parent.children ?? [])
        .map((id) => nodes.find((node) => node.id === id)!)
        .find((node) => node.callFrame.functionName === name);
      const node = found ?? { id: nodes.length + 1, callFrame: { functionName: name }, children: [] };
      if (!found) {
        nodes.push(node);
        parent.children!.push(node.id);
      }
      parent = node;
    }
    return parent.id;
  });
  return { nodes, startTime: 0, endTime: samples.length * 1000, samples: leaves, timeDeltas: samples.map(() => 1000) };
}

describe('npm run bench --profile: what the page was busy with', () => {
  it('counts the time running, named after the host call it handled, a tree redraw or the toasts', () => {
    const receive = ['acceptChunk', 'L', 'M'];
    const busy = pageBusy(
      profileOf([
        ['(idle)'],
        [...receive, '$showMessage', 'notify'],
        [...receive, '$createOrUpdate', 'hide', 'focus'],
        [...receive, '$createOrUpdate', 'hide'],
        ['execute', 'updateNotificationsList', 'layout'],
        ['E', 'setChildren', 'splice'],
        // A host's call that redraws a tree is the call's.
        [...receive, '$refresh', 'setChildren'],
        ['(program)'],
        ['(garbage collector)'],
        ['(idle)'],
        ['(idle)'],
      ]),
    );
    // The last sample stands for no time: 11 samples, 10 ms, of which 3 idle (the last not counted).
    assert.equal(busy.busyMs, 8);
    assert.deepEqual([...busy.parts].sort(), [
      ['$createOrUpdate', 2],
      ['$refresh', 1],
      ['$showMessage', 1],
      ["a tree's rows", 1],
      ['the toasts', 1],
    ]);
    assert.equal(pageBusyText(busy, 2), 'busy 8.0 ms: $createOrUpdate 2.0, $showMessage 1.0');
  });

  it('says an idle page is idle', () => {
    assert.equal(pageBusyText(pageBusy(profileOf([['(idle)'], ['(idle)']]))), 'busy 0.0 ms');
  });
});
