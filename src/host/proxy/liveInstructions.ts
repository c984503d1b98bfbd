// The panel's say over the live proxy: the window and trigger the gauge shows, the settings' engine
// knobs with the standing focus and the pinned sentences, and the tool results kept or dropped in
// the map, named by tool_use id (the map's item ids mean nothing in a request). Summaries stay off:
// the proxy never summarises unless asked. Free of `vscode`.
import { redactSecrets } from '../../engine';
import type { Choices, Thresholds } from '../../protocol/messages';
import type { PanelSay } from '../../proxy';
import { withChoices } from '../context/choices';
import type { Settings } from '../settings';
import type { ToolResultItem } from './liveFates';

export interface InstructionInput {
  readonly settings: Pick<Settings, 'engine' | 'compactionFocus'>;
  readonly thresholds: Pick<Thresholds, 'triggerPercent' | 'targetPercent'>;
  /** The followed session's window, so the proxy's trigger is the gauge's; null: the proxy's default. */
  readonly windowTokens: number | null;
  readonly choices: Choices;
  /** The followed context's items, to turn the choices' item ids into tool_use ids. */
  readonly items: readonly ToolResultItem[];
}

/** Tool_use ids of the chosen items that are a tool call or its result (messages cannot be edited live). */
function toolUseIds(ids: readonly number[], items: readonly ToolResultItem[]): string[] {
  const chosen = new Set(ids);
  return [...new Set(items.flatMap((item) => (chosen.has(item.id) && item.toolUseId !== undefined ? [item.toolUseId] : [])))];
}

/** Every tool call id of the followed context, once each, in order: how a proxy places a request that names no session. */
function toolCallIds(items: readonly ToolResultItem[]): string[] {
  return [...new Set(items.flatMap((item) => (item.toolUseId === undefined ? [] : [item.toolUseId])))];
}

export function liveInstructionsOf({ settings, thresholds, windowTokens, choices, items }: InstructionInput): PanelSay {
  const engine = withChoices(settings.engine, { keep: [], drop: [], pins: choices.pins });
  // They are written to a file the proxies read: no secret a pinned sentence quoted goes with them.
  const preserve = engine.preserve?.pinned ? { preserve: { ...engine.preserve, pinned: engine.preserve.pinned.map(redactSecrets) } } : {};
  return {
    ...(windowTokens ? { windowTokens } : {}),
    triggerPercent: thresholds.triggerPercent,
    engine: {
      ...engine,
      ...preserve,
      targetPercent: thresholds.targetPercent,
      focus: redactSecrets(settings.compactionFocus),
      summary: { ...engine.summary, enabled: false },
    },
    keep: toolUseIds(choices.keep, items),
    drop: toolUseIds(choices.drop, items),
    toolCalls: toolCallIds(items),
  };
}
