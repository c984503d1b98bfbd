// The Anthropic API key lives in SecretStorage (the OS keychain), never in settings or logs.
import * as vscode from 'vscode';

const SECRET_KEY = 'contextLens.anthropicApiKey';

export class ApiKeyStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  get(): Thenable<string | undefined> {
    return this.secrets.get(SECRET_KEY);
  }

  /** "Set Anthropic API Key": set or replace it, or clear it (also by submitting an empty box). */
  async prompt(): Promise<void> {
    const existing = await this.get();
    if (existing) {
      const choice = await vscode.window.showQuickPick(
        [
          { label: '$(key) Replace the stored key…', clear: false },
          { label: '$(trash) Clear the stored key', clear: true },
        ],
        {
          title: 'Context Lens: Anthropic API Key',
        },
      );
      if (!choice) return;
      if (choice.clear) return this.clear();
    }
    const value = await vscode.window.showInputBox({
      title: 'Context Lens: Anthropic API Key',
      prompt: 'Used by the anthropic summarizer; stored in the OS keychain. Leave empty to clear.',
      password: true,
      ignoreFocusOut: true,
      placeHolder: 'sk-ant-…',
    });
    if (value === undefined) return;
    if (value.trim() === '') return this.clear();
    await this.secrets.store(SECRET_KEY, value.trim());
    void vscode.window.showInformationMessage('Context Lens: Anthropic API key stored.');
  }

  private async clear(): Promise<void> {
    await this.secrets.delete(SECRET_KEY);
    void vscode.window.showInformationMessage('Context Lens: Anthropic API key cleared.');
  }
}
