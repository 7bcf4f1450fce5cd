import assert from 'node:assert/strict';
import vscode = require('vscode');
import { HOSTILE_WORKSPACE_PAGE_SIZE, HOSTILE_WORKSPACE_SETTINGS } from '../../codeServer/workspace';
import { extensionApi } from './helpers';

// Run only in the Restricted Mode run (npm run test:integration -- --restricted): the workspace is
// not trusted, and its .vscode/settings.json holds hostile values for every setting a repository
// could abuse. VS Code itself decides what the extension reads there.
describe('Restricted Mode: what a cloned repository cannot set', () => {
  it('the folder is not trusted, and its settings file is read (a setting that is not restricted applies)', () => {
    assert.equal(vscode.workspace.isTrusted, false, 'the workspace opened in Restricted Mode');
    assert.equal(
      vscode.workspace.getConfiguration('helpdesk').get('pageSize'),
      HOSTILE_WORKSPACE_PAGE_SIZE,
      "the repository's unrestricted pageSize is read",
    );
  });

  it("the extension reads none of the restricted ones: each is the user's value or the default", async () => {
    await extensionApi();
    const config = vscode.workspace.getConfiguration('helpdesk');
    for (const [name, hostile] of Object.entries(HOSTILE_WORKSPACE_SETTINGS)) {
      const key = name.replace(/^helpdesk\./, '');
      const inspected = config.inspect(key);
      assert.notDeepEqual(config.get(key), hostile, `${name}: the repository's value was read`);
      assert.deepEqual(config.get(key), inspected?.globalValue ?? inspected?.defaultValue, name);
    }
  });
});
