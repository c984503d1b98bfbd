// The same smoke checks as the code-server e2e suite, inside desktop VS Code's extension host.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Commands } from '../../../src/host/commands';

const EXTENSION_ID = 'context-lens.context-lens';

describe('Context Lens in desktop VS Code', () => {
  it('activates', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not installed in the test instance`);
    await extension.activate();
    assert.equal(extension.isActive, true);
  });

  it('registers its panel commands', async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const id of [Commands.openPanel, Commands.openInEditor, Commands.openSettings, Commands.showLog])
      assert.ok(registered.has(id), `${id} is not registered`);
  });

  it('opens the panel and the editor tab without errors', async () => {
    await vscode.commands.executeCommand(Commands.openPanel);
    await vscode.commands.executeCommand(Commands.openInEditor);
    const tab = vscode.window.tabGroups.all.flatMap((group) => group.tabs).find((candidate) => candidate.label === 'Context Lens');
    assert.ok(tab, 'the Context Lens editor tab did not open');
  });
});
