// The History's line about what our hooks (or plugin) did around one of the agent's compactions.
// DOM-free so it is unit-tested under node; the webview shows it with a codicon, as text only.
import type { HookActivity } from '../../src/protocol/messages';
import { plural } from './format';

export interface HookActivityLine {
  /** A hook reported an error: drawn with a warning icon (the words say it too). */
  failed: boolean;
  text: string;
}

/** "pinned block sent: 2 constraints, 1 open loop · focus ‘the retry rework’ · re-injected after compaction". */
export function hookActivityLine({ preCompact, sessionStart }: HookActivity): HookActivityLine {
  const parts: string[] = [];
  const pinned = preCompact === null ? 0 : preCompact.constraints + preCompact.openLoops;
  if (preCompact?.error) parts.push(`pre-compact hook failed: ${preCompact.error}`);
  else if (preCompact) {
    parts.push(pinned > 0 ? `pinned block sent${countsOf(preCompact)}` : 'nothing pinned to send');
    if (preCompact.workspaceFocus) parts.push(`focus ‘${preCompact.workspaceFocus}’`);
  }
  if (sessionStart?.error) parts.push(`session-start hook failed: ${sessionStart.error}`);
  // No block went to the summariser (Codex and Gemini CLI have no way in there): the one put back says what was kept.
  else if (sessionStart?.printed && preCompact === null) parts.push(`pinned block re-injected after compaction${countsOf(sessionStart)}`);
  else if (sessionStart?.printed) parts.push('re-injected after compaction');
  // Silence after a pinned block is worth saying: the SessionStart hook may not be set up.
  else if (pinned > 0 && !preCompact?.error) parts.push('not re-injected');
  else if (sessionStart && preCompact === null) parts.push('nothing re-injected');
  return { failed: Boolean(preCompact?.error || sessionStart?.error), text: parts.join(' · ') };
}

/** ": 2 constraints, 1 open loop", or nothing when the block held neither (its prompts alone). */
function countsOf({ constraints = 0, openLoops = 0 }: { constraints?: number; openLoops?: number }): string {
  const counts: string[] = [];
  if (constraints > 0) counts.push(plural(constraints, 'constraint'));
  if (openLoops > 0) counts.push(plural(openLoops, 'open loop'));
  return counts.length > 0 ? `: ${counts.join(', ')}` : '';
}
