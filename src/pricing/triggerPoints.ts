// Where the gauge's marks and the offers sit, from the settings and the agent's own auto-compact
// point. Pure (no vscode), shared by the panel and the CLI so both show the same marks:
// - left at its default, our trigger sits AGENT_MARGIN_PERCENT below the agent's own point, so the
//   offer (with a focus, a preview, the person's choices) comes before the agent compacts blindly;
// - a target that is not below the trigger, or a safety net below it, is refused with a sentence
//   saying which value is used instead — never clamped silently.

/** Points below the agent's auto-compact point where the default trigger goes. */
export const AGENT_MARGIN_PERCENT = 5;

export interface TriggerSettings {
  /** contextLens.trigger.thresholdPercent as set (or its default). */
  readonly thresholdPercent: number;
  /** The person set the threshold somewhere (user, workspace or folder settings). */
  readonly thresholdSet: boolean;
  readonly targetPercent: number;
  readonly safetyNetPercent: number;
  /** Defaults, used when a setting is refused. */
  readonly defaultTargetPercent: number;
}

export interface CheckedSettings {
  readonly targetPercent: number;
  readonly safetyNetPercent: number;
  /** Settings refused, each with the value used instead; shown as a warning and on the gauge. */
  readonly problems: string[];
}

const round1 = (value: number): number => Math.round(value * 10) / 10;

/** The settings' own consistency, against the threshold as set (the agent point may lower the trigger further). */
export function checkTriggerSettings(settings: TriggerSettings): CheckedSettings {
  const problems: string[] = [];
  const trigger = settings.thresholdPercent;
  let targetPercent = settings.targetPercent;
  if (targetPercent >= trigger) {
    // The default target, unless that is not below the trigger either.
    targetPercent = settings.defaultTargetPercent < trigger ? settings.defaultTargetPercent : Math.max(1, trigger - 10);
    problems.push(
      `Target ${settings.targetPercent} % is not below the trigger ${trigger} % (a compaction would re-trigger at once): using ${targetPercent} % until contextLens.trigger.targetPercent is lowered.`,
    );
  }
  let safetyNetPercent = settings.safetyNetPercent;
  if (safetyNetPercent < trigger) {
    safetyNetPercent = trigger;
    problems.push(
      `Safety net ${settings.safetyNetPercent} % is below the trigger ${trigger} %: using ${trigger} % until contextLens.trigger.safetyNetPercent is raised.`,
    );
  }
  return { targetPercent, safetyNetPercent, problems };
}

export interface EffectiveTrigger {
  readonly percent: number;
  /** Why the trigger is where it is when that is not simply the setting; null otherwise. */
  readonly note: string | null;
}

/** The trigger in force for a session whose agent compacts at `agentPercent` (null: unknown). */
export function effectiveTrigger(
  settings: Pick<TriggerSettings, 'thresholdPercent' | 'thresholdSet'>,
  targetPercent: number,
  agentPercent: number | null,
  agentName = 'the agent',
): EffectiveTrigger {
  const setting = settings.thresholdPercent;
  if (agentPercent === null || agentPercent <= 0) return { percent: setting, note: null };
  if (agentPercent <= targetPercent) {
    // The agent compacts by itself before the fill could reach our target: no trigger of ours comes first.
    return {
      percent: setting,
      note: `${agentName} compacts by itself at ${round1(agentPercent)} %, below our target (${targetPercent} %): it will compact before Context Lens offers to. Compact… here any time before that.`,
    };
  }
  if (!settings.thresholdSet) {
    const below = round1(Math.max(agentPercent - AGENT_MARGIN_PERCENT, targetPercent + 1));
    if (below < setting) {
      return {
        percent: below,
        note: `Trigger at ${below} %: ${AGENT_MARGIN_PERCENT} points below ${agentName}'s auto-compact point (${round1(agentPercent)} %), so Context Lens offers first. Set contextLens.trigger.thresholdPercent to choose another.`,
      };
    }
    return { percent: setting, note: null };
  }
  if (setting >= agentPercent) {
    return {
      percent: setting,
      note: `Your trigger ${setting} % is at or above ${agentName}'s auto-compact point (${round1(agentPercent)} %): ${agentName} will compact first, without a focus or your choices.`,
    };
  }
  return { percent: setting, note: null };
}
