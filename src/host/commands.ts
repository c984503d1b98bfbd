// Command ids in one place: package.json contributes them, the app registers them, the webview may
// request the whitelisted subset through the protocol.
import type { WebviewCommand } from '../protocol/messages';

export const Commands = {
  openPanel: 'contextLens.openPanel',
  openInEditor: 'contextLens.openInEditor',
  compact: 'contextLens.compact',
  previewCompaction: 'contextLens.previewCompaction',
  selectSession: 'contextLens.selectSession',
  openTranscript: 'contextLens.openTranscript',
  setApiKey: 'contextLens.setApiKey',
  openSettings: 'contextLens.openSettings',
  showLog: 'contextLens.showLog',
  connectClaudeCode: 'contextLens.connectClaudeCode',
  disconnectClaudeCode: 'contextLens.disconnectClaudeCode',
  pruneArchive: 'contextLens.pruneArchive',
  startLiveProxy: 'contextLens.startLiveProxy',
  stopLiveProxy: 'contextLens.stopLiveProxy',
  installCli: 'contextLens.installCli',
  uninstallCli: 'contextLens.uninstallCli',
} as const;

export const webviewCommandIds: Record<WebviewCommand, string> = {
  openTranscript: Commands.openTranscript,
  selectSession: Commands.selectSession,
  openSettings: Commands.openSettings,
  showLog: Commands.showLog,
  compact: Commands.compact,
  previewCompaction: Commands.previewCompaction,
  connectAgent: Commands.connectClaudeCode,
  disconnectAgent: Commands.disconnectClaudeCode,
};
