// Context Lens: Prune Archive — the archive caps from the settings, applied now, and what it removed said.
import * as vscode from 'vscode';
import { pruneArchive } from '../../archive/fileArchive';
import type { FlowDeps } from './flowDeps';

export async function pruneArchiveNow(deps: Pick<FlowDeps, 'settings' | 'archiveFolder' | 'log'>): Promise<void> {
  const caps = deps.settings.current.archive;
  const pruned = await pruneArchive(deps.archiveFolder, caps);
  if (!pruned.ok) {
    void vscode.window.showErrorMessage(`Context Lens: ${pruned.error}`);
    return;
  }
  const { removed, keptEntries, keptBytes } = pruned.value;
  const megabytes = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  const message = `Archive pruned: removed ${removed.length} file(s) (${megabytes(removed.reduce((sum, file) => sum + file.bytes, 0))}), kept ${keptEntries} (${megabytes(keptBytes)}).`;
  deps.log.info(`${message} Caps: ${caps.maxMegabytes} MB, ${caps.maxAgeDays} days; folder ${deps.archiveFolder}`);
  void vscode.window.showInformationMessage(`Context Lens: ${message}`);
}
