// The manifest is what VS Code sees: check it against the code it points to.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import manifest from '../../../package.json';
import { Commands } from '../../../src/host/commands';
import { SETTING_DEFAULTS } from '../../../src/host/settingDefaults';

interface ContributedCommand {
  command: string;
  title: string;
  category?: string;
  icon?: string;
}

const contributes = manifest.contributes as unknown as {
  commands: ContributedCommand[];
  configuration: { properties: Record<string, { default: unknown; description?: string; markdownDescription?: string }> };
  views: Record<string, { id: string; type?: string }[]>;
  viewsContainers: { panel: { id: string }[] };
};

describe('package.json', () => {
  it('is an extension manifest with entry points for the extension and the CLI', () => {
    assert.equal(manifest.displayName, 'Context Lens');
    assert.equal(manifest.main, './dist/extension.js');
    // Its own name: `context-lens` is another project's on npm.
    assert.deepEqual(manifest.bin, { ctxlens: 'dist/cli.js' });
    assert.ok(manifest.engines.vscode);
    assert.ok(manifest.publisher);
  });

  it('never activates on *', () => {
    assert.ok(!manifest.activationEvents.includes('*'));
  });

  it('contributes every command the host registers, each with the category and a codicon', () => {
    const contributed = new Map(contributes.commands.map((command) => [command.command, command]));
    for (const id of Object.values(Commands)) {
      const command = contributed.get(id);
      assert.ok(command, `${id} is not contributed`);
      assert.equal(command.category, 'Context Lens', id);
      assert.match(command.icon ?? '', /^\$\([a-z-]+\)$/, id);
    }
    assert.equal(contributed.size, Object.values(Commands).length, 'a contributed command has no id in Commands');
  });

  it('has a webview view in the panel area', () => {
    const container = contributes.viewsContainers.panel.find((panel) => panel.id === 'contextLens');
    assert.ok(container);
    assert.deepEqual(
      contributes.views.contextLens?.map((view) => [view.id, view.type]),
      [['contextLens.panel', 'webview']],
    );
  });

  it('declares every setting the host reads, with the same default and a description', () => {
    const properties = contributes.configuration.properties;
    for (const [key, value] of Object.entries(SETTING_DEFAULTS)) {
      const property = properties[`contextLens.${key}`];
      assert.ok(property, `contextLens.${key} is not declared`);
      assert.deepEqual(property.default, value, key);
      assert.ok(property.description ?? property.markdownDescription, `contextLens.${key} has no description`);
    }
  });
});
