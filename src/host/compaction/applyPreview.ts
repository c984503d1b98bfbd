// Apply: the fork of exactly the preview shown, written as a new session the agent can resume. The
// source transcript is only read and must not have moved on since the preview; what the fork drops
// is archived first; the fork is recorded in the history and offered to resume.
import * as vscode from 'vscode';
import type { ForkView, Preview } from '../../protocol/messages';
import type { LiveSnapshot } from '../context/liveSnapshot';
import type { FlowDeps } from './flowDeps';
import type { PreviewSession, Shown } from './PreviewSession';
import { resumeInTerminal } from './resumeInTerminal';
import { sessionMovedOn } from './stale';

export interface ApplyDeps extends Pick<FlowDeps, 'settings' | 'history' | 'clearChoices' | 'log'> {
  readonly session: PreviewSession;
  /** Compact… again with this focus, offered when the session moved on since the preview. */
  readonly compactAgain: (focus: string) => void;
}

/** Writes the fork of exactly the preview shown, when it still matches its inputs (else says why not). */
export async function applyPreview(deps: ApplyDeps, previewId: string): Promise<void> {
  const grant = deps.session.beginApply(previewId);
  if (!grant.ok) {
    if (grant.error) void vscode.window.showWarningMessage(`Context Lens: not applied: ${grant.error}`);
    return;
  }
  let applied: Preview | null = null;
  try {
    applied = await writeFork(deps, grant.value);
  } finally {
    deps.session.endApply(applied);
  }
  if (applied?.applied) await afterApply(deps, grant.value, applied.applied);
}

/** The fork written and recorded, as the applied preview; null when it was not (the person was told why). */
async function writeFork(deps: ApplyDeps, { preview, inputs, result, archive }: Shown): Promise<Preview | null> {
  const { snapshot } = inputs;
  // The panel's snapshot trails the file by a debounce: the file itself must not have moved on.
  const moved = await sessionMovedOn(snapshot.adapter, snapshot.live);
  if (!moved.ok) {
    void vscode.window.showErrorMessage(`Context Lens: could not apply the compaction: ${moved.error.message}`);
    return null;
  }
  if (moved.value) {
    deps.log.warn(`Apply of preview ${preview.id} stopped: ${snapshot.live.session.path} moved on since the preview`);
    const again = 'Compact… Again';
    void vscode.window.showWarningMessage('Context Lens: The session moved on since this preview — run Compact… again.', again).then((choice) => {
      if (choice === again) deps.compactAgain(preview.focus);
    });
    return null;
  }
  // Archived before the fork that drops anything is written; a preview left unapplied writes nothing.
  if (result.archive) {
    const committed = await archive.commit(result.archive.id, deps.settings.current.archive);
    if (!committed.ok) {
      void vscode.window.showErrorMessage(`Context Lens: could not apply the compaction: ${committed.error}`);
      return null;
    }
    deps.log.info(`Archived the context before the compaction as ${committed.value.location}`);
  }
  const { adapter } = snapshot;
  // A fork inherits its source's title (pickers say "fork of …"): no suffix piling up over forks of forks.
  const written = await adapter.writeFork({
    live: snapshot.live,
    context: snapshot.context,
    result,
    focus: preview.focus || null,
    title: snapshot.live.session.title,
  });
  if (!written.ok) {
    void vscode.window.showErrorMessage(`Context Lens: could not apply the compaction: ${written.error.message}`);
    return null;
  }
  const fork: ForkView = written.value;
  // What the fork had to do beyond the plan (a call still running closed with an error result): said, not hidden.
  for (const note of written.value.notes ?? []) {
    deps.log.info(note);
    void vscode.window.showWarningMessage(`Context Lens: ${note}`);
  }
  await deps.history.add([snapshot.live.session.path, fork.path], {
    id: preview.id,
    at: new Date().toISOString(),
    focus: preview.focus || null,
    beforeTokens: preview.beforeTokens,
    afterTokens: preview.afterTokens,
    savingsPct: preview.savingsPct,
    summary: preview.summary,
    verification: preview.verification,
    fork,
  });
  deps.log.info(`Applied the compaction as session ${fork.sessionId} (${fork.path})${preview.summaryEdited ? ' with the summary edited by the person' : ''}`);
  return { ...preview, applied: fork };
}

async function afterApply(deps: ApplyDeps, { inputs }: Shown, fork: ForkView): Promise<void> {
  const { snapshot } = inputs;
  await deps.clearChoices(snapshot.live.session.path);
  const choice = await vscode.window.showInformationMessage(
    `Context Lens: compacted session written — resume it with \`${fork.resumeCommand}\`.`,
    'Resume in Terminal',
    'Copy resume command',
  );
  if (choice === 'Resume in Terminal') resumeFork(deps, fork, snapshot);
  else if (choice === 'Copy resume command') await vscode.env.clipboard.writeText(fork.resumeCommand);
}

/** The agent resumes the fork in a terminal of this window. */
export function resumeFork(deps: Pick<FlowDeps, 'settings'>, fork: ForkView, snapshot: LiveSnapshot): void {
  resumeInTerminal(fork, snapshot.adapter, snapshot.live.session, { claude: deps.settings.current.summarizer.claudeCliPath });
}
