// The History's actions on one of the agent's own compactions: its before/after in VS Code's diff
// editor (the context as it stood before it against what the agent kept: its summary and the messages
// it kept), and Redo with Context Lens: our compaction of the context as it stood before the agent's,
// written as a new session through the fork path Apply uses (the adapter's writeFork), never touching
// the agent's own files.
import * as vscode from 'vscode';
import { FileSystemArchive, StagedArchive } from '../../archive/fileArchive';
import { compact, HeuristicSummarizer } from '../../engine';
import { contextBefore, keptText, redoTargetTokens } from '../../sessions/compactionAudit';
import type { LiveSnapshot } from '../context/liveSnapshot';
import type { DiffDocuments } from './DiffDocuments';
import { resumeInTerminal } from './resumeInTerminal';

export interface AuditActionDeps {
  readonly snapshot: () => LiveSnapshot | null;
  readonly diffs: DiffDocuments;
  readonly archiveFolder: string;
  readonly claudeCliPath: () => string;
  readonly log: vscode.LogOutputChannel;
}

export class AuditActions {
  constructor(private readonly deps: AuditActionDeps) {}

  async run(compactionId: string, action: 'openDiff' | 'redo'): Promise<void> {
    const snapshot = this.deps.snapshot();
    const event = snapshot?.live.compactions.find((candidate) => candidate.uuid === compactionId && candidate.by === 'agent');
    if (snapshot === null || event === undefined) return;
    const adapter = snapshot.adapter;
    const before = await contextBefore(adapter, snapshot.live, event);
    if (!before.ok) {
      void vscode.window.showErrorMessage(`Context Lens: ${before.error.message}`);
      return;
    }
    if (action === 'openDiff') {
      // What the agent kept: as its adapter reads it, else (its latest compaction) what the live context opens with.
      const latest = snapshot.live.compactions.filter((candidate) => candidate.by === 'agent').at(-1) === event;
      const beforeText = before.value.context.items.map((item) => `#${item.id} ${item.kind}\n${item.text}`).join('\n\n');
      const pair = this.deps.diffs.prepare(
        'audit',
        `audit-${event.uuid.slice(0, 40)}`,
        beforeText,
        before.value.kept ?? keptText(event, latest ? snapshot.context : null),
      );
      await this.deps.diffs.show(pair, `${adapter.name}'s compaction: before ↔ what it kept`);
      return;
    }
    // Redo: the same engine and fork writer as Apply, on the context as it stood before the agent's compaction.
    const archive = new StagedArchive(new FileSystemArchive(this.deps.archiveFolder));
    const targetTokens = redoTargetTokens(event, before.value.context);
    const result = await compact(
      before.value.context,
      { trigger: 'manual', explicitTarget: true, targetTokens },
      { summarizer: new HeuristicSummarizer(), archive },
    );
    if (result.status !== 'compacted') {
      void vscode.window.showInformationMessage(`Context Lens: nothing to redo — ${result.message}`);
      return;
    }
    if (result.archive) {
      const committed = await archive.commit(result.archive.id);
      if (!committed.ok) {
        void vscode.window.showErrorMessage(`Context Lens: ${committed.error}`);
        return;
      }
    }
    const written = await adapter.writeFork({
      live: before.value.live,
      context: before.value.context,
      result,
      focus: null,
      title: snapshot.live.session.title,
    });
    if (!written.ok) {
      void vscode.window.showErrorMessage(`Context Lens: ${written.error.message}`);
      return;
    }
    const fork = written.value;
    this.deps.log.info(`Redid ${adapter.name}'s compaction ${event.uuid} with Context Lens as session ${fork.sessionId} (${fork.path})`);
    const choice = await vscode.window.showInformationMessage(
      `Context Lens: redone as a new session — resume it with \`${fork.resumeCommand}\`.`,
      'Resume in Terminal',
      'Copy resume command',
    );
    if (choice === 'Resume in Terminal')
      resumeInTerminal({ sessionId: fork.sessionId, path: fork.path, resumeCommand: fork.resumeCommand }, adapter, snapshot.live.session, {
        claude: this.deps.claudeCliPath(),
      });
    else if (choice === 'Copy resume command') await vscode.env.clipboard.writeText(fork.resumeCommand);
  }
}
