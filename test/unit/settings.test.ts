import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { beforeEach, describe, it } from 'node:test';
import { proposeBranchName } from '../../src/branch/branchNames';
import { readSettings } from '../../src/settings';
import { fake } from './fakeVscode';

interface Manifest {
  capabilities: { untrustedWorkspaces: { supported: boolean | 'limited'; restrictedConfigurations?: string[] } };
  contributes: { configuration: { properties: Record<string, { scope?: string; maxLength?: number; maxItems?: number }> } };
}
const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as Manifest;

describe("what a repository's settings can do", () => {
  beforeEach(() => fake.reset());

  it('in Restricted Mode, a repository sets none of the settings it could abuse', () => {
    assert.equal(manifest.capabilities.untrustedWorkspaces.supported, 'limited', 'restrictedConfigurations are read only with "limited"');
    const restricted = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations ?? [];
    const properties = manifest.contributes.configuration.properties;
    for (const key of [
      'helpdesk.workspaceAccount',
      'helpdesk.branchNameTemplate',
      'helpdesk.commitMessageTemplate',
      'helpdesk.referencePrefix',
      'helpdesk.todoActions.triggerWords',
      'helpdesk.watch.intervalMinutes',
      'helpdesk.watch.notify',
      'helpdesk.autoRefreshMinutes',
      'helpdesk.requestTimeoutSeconds',
    ]) {
      assert.ok(restricted.includes(key), `${key} is not restricted`);
    }
    for (const key of restricted) assert.ok(properties[key], `${key} is no setting`);
    // The rest: application settings (no workspace sets them) and harmless choices.
    for (const [key, property] of Object.entries(properties)) {
      if (restricted.includes(key) || property.scope === 'application') continue;
      assert.ok(
        [
          'helpdesk.pageSize',
          'helpdesk.showClosedPosts',
          'helpdesk.snippetMaxLines',
          'helpdesk.references.enabled',
          'helpdesk.todoActions.enabled',
        ].includes(key),
        `${key}: restricted, or say why not`,
      );
    }
    assert.equal(properties['helpdesk.branchNameTemplate']?.maxLength, 200);
    assert.equal(properties['helpdesk.commitMessageTemplate']?.maxLength, 200);
  });

  it('a template longer than 200 characters is the default, with one clear message, never a throw', () => {
    fake.config.set('helpdesk.branchNameTemplate', 'a' + '.-'.repeat(50000) + 'x{id}');
    fake.config.set('helpdesk.commitMessageTemplate', 'a.'.repeat(20000) + 'x{id}');
    for (let i = 0; i < 5; i++) {
      const settings = readSettings();
      assert.equal(settings.branchNameTemplate, '');
      assert.equal(proposeBranchName(settings.branchNameTemplate, { id: 5, title: 'Fix' }), 'hd-5-fix');
      assert.equal(settings.commitMessageTemplate, '{reference}: ');
    }
    assert.equal(fake.messages.length, 2, fake.messages.map((m) => m.text).join('\n'));
    const [branch, commit] = fake.messages;
    assert.equal(branch?.level, 'warn');
    assert.match(branch.text, /helpdesk\.branchNameTemplate/);
    assert.match(branch.text, /100,?006 characters/);
    assert.match(branch.text, /at most 200/);
    assert.match(commit!.text, /helpdesk\.commitMessageTemplate/);
    fake.config.set('helpdesk.branchNameTemplate', 'feature/{id}');
    assert.equal(readSettings().branchNameTemplate, 'feature/{id}', 'a value within bounds is used as it is');
    assert.equal(fake.messages.length, 2);
  });

  it('a whitespace-only commit message template is nothing (empty → nothing, as the README says)', () => {
    fake.config.set('helpdesk.commitMessageTemplate', '   \t ');
    assert.equal(readSettings().commitMessageTemplate, '');
    fake.config.set('helpdesk.commitMessageTemplate', '{reference}: ');
    assert.equal(readSettings().commitMessageTemplate, '{reference}: ', 'the spaces of a template with text count');
  });

  it('a list of trigger words is bounded', () => {
    fake.config.set(
      'helpdesk.todoActions.triggerWords',
      Array.from({ length: 200_000 }, (_, i) => `W${i}`),
    );
    const words = readSettings().todoWords;
    assert.ok(words.length <= 20, `${words.length} words`);
    assert.deepEqual(words.slice(0, 2), ['W0', 'W1']);
    fake.config.set('helpdesk.todoActions.triggerWords', ['x'.repeat(100_000), 'TODO']);
    assert.deepEqual(readSettings().todoWords, ['TODO'], 'a word that can never match is dropped');
  });
});
