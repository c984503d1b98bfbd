// The webview's HTML shell: strict CSP with a per-load nonce, scripts and styles only from
// dist/webview, no inline handlers. Everything the panel shows is rendered by webview/main.ts.
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';

export function webviewRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')];
}

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, enableCommandUris: false, localResourceRoots: webviewRoots(extensionUri) };
}

export function renderWebviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, surface: 'view' | 'editor'): string {
  const nonce = randomBytes(16).toString('base64');
  const asset = (...path: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', ...path)).toString();
  const csp = [
    "default-src 'none'",
    `img-src ${webview.cspSource} data:`,
    `font-src ${webview.cspSource}`,
    `style-src ${webview.cspSource} 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${asset('codicons', 'codicon.css')}" id="vscode-codicon-stylesheet" nonce="${nonce}">
<link rel="stylesheet" href="${asset('styles.css')}" nonce="${nonce}">
<title>Context Lens</title>
</head>
<body data-surface="${surface}">
<main id="app" aria-live="polite"><p class="loading">Loading Context Lens…</p></main>
<script nonce="${nonce}" src="${asset('main.js')}"></script>
</body>
</html>`;
}
