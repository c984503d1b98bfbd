import type * as vscode from 'vscode';
import { ContextLensApp } from './host/app';

export function activate(context: vscode.ExtensionContext): void {
  context.subscriptions.push(new ContextLensApp(context));
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
