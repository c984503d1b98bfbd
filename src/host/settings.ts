// Typed view of the `contextLens.*` settings, re-read whenever they change so every consumer
// (gauge marks, status bar colours, the next plan) reacts without a reload.
import { SETTINGS_SECTION } from '../contracts/hookEvents';
import * as vscode from 'vscode';
import type { ArchiveCaps, EngineOptionsInput } from '../engine';
import { exactTokens } from '../protocol/format';
import type { Thresholds } from '../protocol/messages';
import type { FillSnapshot } from '../sessions/types';
import { engineOptionsOf } from './engineOptions';
import { type PriceIndex, checkTriggerSettings, effectiveTrigger } from '../pricing';
import { pricesOf } from './context/costs';
import { SETTING_DEFAULTS, type SettingKey, type SettingValues, type SummarizerName } from './settingDefaults';
import { Disposables } from './disposables';

export interface Settings {
  /** The threshold setting; the trigger in force also depends on the agent's point (`effectiveTrigger`). */
  readonly triggerPercent: number;
  /** The threshold was set by the person: it is then used as it is, never derived. */
  readonly triggerSet: boolean;
  /** Refused settings and the values used instead (`checkTriggerSettings`). */
  readonly triggerProblems: readonly string[];
  readonly targetPercent: number;
  readonly safetyNetPercent: number;
  /** Offer Compact… when the fill crosses the trigger or the safety net. */
  readonly notifyOnTrigger: boolean;
  /** Low-savings compactions in a row after which the offers stop (circuit breaker). */
  readonly maxConsecutiveLowSavings: number;
  /** 0 = take the window from the model. */
  readonly windowTokensOverride: number;
  /** Per agent id, where to look for its sessions (empty: the agent's defaults). */
  readonly sessionHomes: Readonly<Record<string, readonly string[]>>;
  readonly statusBarEnabled: boolean;
  /** Say the session's cost in the status bar's tooltip. */
  readonly costInStatusBar: boolean;
  /** Keep the resident reader for the terminals' `ctxlens` (host/ResidentCli.ts). */
  readonly residentReader: boolean;
  /** The bundled prices with the person's `cost.prices` merged over them. */
  readonly prices: PriceIndex;
  /** Why `cost.prices` was refused (the bundled prices are used alone); null when taken. */
  readonly pricesProblem: string | null;
  /** Standing focus for compactions; '' = none. */
  readonly compactionFocus: string;
  /** Engine knobs for the live plan and Compact… (target from `targetPercent`). */
  readonly engine: EngineOptionsInput;
  readonly summarizer: SummarizerSettings;
  /** Size and age caps of the archive of pre-compaction contexts (0 = no cap). */
  readonly archive: ArchiveCaps;
}

export interface SummarizerSettings {
  readonly provider: SummarizerName;
  readonly anthropicModel: string;
  /** '' = the SDK's default endpoint. */
  readonly anthropicBaseUrl: string;
  /** '' = `claude` from PATH. */
  readonly claudeCliPath: string;
}

const SECTION = SETTINGS_SECTION;

export function readSettings(scope?: vscode.ConfigurationScope): Settings {
  const config = vscode.workspace.getConfiguration(SECTION, scope);
  const values = Object.fromEntries(Object.entries(SETTING_DEFAULTS).map(([key, fallback]) => [key, config.get(key, fallback)])) as SettingValues;
  const get = <K extends SettingKey>(key: K): SettingValues[K] => values[key];
  const triggerPercent = get('trigger.thresholdPercent');
  const inspected = config.inspect('trigger.thresholdPercent');
  const triggerSet = [inspected?.globalValue, inspected?.workspaceValue, inspected?.workspaceFolderValue].some((value) => value !== undefined);
  // Hysteresis only works when the target sits below the trigger: a setting that breaks it is refused, and said so.
  const checked = checkTriggerSettings({
    thresholdPercent: triggerPercent,
    thresholdSet: triggerSet,
    targetPercent: get('trigger.targetPercent'),
    safetyNetPercent: get('trigger.safetyNetPercent'),
    defaultTargetPercent: SETTING_DEFAULTS['trigger.targetPercent'],
  });
  const { targetPercent } = checked;
  return {
    triggerPercent,
    triggerSet,
    triggerProblems: checked.problems,
    targetPercent,
    safetyNetPercent: checked.safetyNetPercent,
    notifyOnTrigger: get('trigger.notify'),
    maxConsecutiveLowSavings: get('compaction.maxConsecutiveLowSavings'),
    windowTokensOverride: get('window.overrideTokens'),
    sessionHomes: sessionHomesOf(get('sessionFolders'), get('claudeCode.configDirs')),
    statusBarEnabled: get('statusBar.enabled'),
    costInStatusBar: get('cost.showInStatusBar'),
    residentReader: get('terminal.residentReader'),
    ...pricesOf(get('cost.prices')),
    compactionFocus: get('compaction.focus').trim(),
    engine: engineOptionsOf(values, targetPercent),
    summarizer: {
      provider: get('summarizer.provider'),
      anthropicModel: get('summarizer.anthropicModel'),
      anthropicBaseUrl: get('summarizer.anthropicBaseUrl'),
      claudeCliPath: get('summarizer.claudeCliPath'),
    },
    archive: { maxMegabytes: get('archive.maxMegabytes'), maxAgeDays: get('archive.maxAgeDays') },
  };
}

/** The trigger in force for a session whose agent (`agentName`, as the notes name it) compacts at `agentAutoCompactPercent`. */
export function triggerOf(settings: Settings, agentAutoCompactPercent: number | null, agentName?: string) {
  return effectiveTrigger(
    { thresholdPercent: settings.triggerPercent, thresholdSet: settings.triggerSet },
    settings.targetPercent,
    agentAutoCompactPercent,
    agentName,
  );
}

/** Where the agent compacts by itself as a percent of the window the fill is read against; null when unknown. */
export function agentPercentOf(fill: Pick<FillSnapshot, 'agentAutoCompactTokens' | 'windowTokens'> | null): number | null {
  if (fill === null || !(fill.windowTokens > 0) || !(fill.agentAutoCompactTokens > 0)) return null;
  return (fill.agentAutoCompactTokens / fill.windowTokens) * 100;
}

/**
 * The gauge's marks. The agent's own point can lie beyond the window shown: its limit is the model's,
 * and a window set in contextLens.window.overrideTokens (or one another agent's model reports) may be
 * smaller. That point is not drawn; a note says where it is.
 */
export function thresholdsOf(
  settings: Settings,
  fill: Pick<FillSnapshot, 'agentAutoCompactTokens' | 'windowTokens' | 'windowSource'> | null,
  agentName = 'the agent',
): Thresholds {
  const agentPercent = agentPercentOf(fill);
  const trigger = triggerOf(settings, agentPercent, agentName);
  const beyond = fill !== null && agentPercent !== null && agentPercent > 100;
  const beyondNote = beyond
    ? `${agentName} compacts by itself at ${exactTokens(fill.agentAutoCompactTokens)} tokens, beyond this ${exactTokens(fill.windowTokens)}-token window${fill.windowSource === 'override' ? ' (set in contextLens.window.overrideTokens)' : ''}: its mark is not drawn.`
    : null;
  return {
    triggerPercent: trigger.percent,
    notes: [...settings.triggerProblems, ...(trigger.note ? [trigger.note] : []), ...(beyondNote ? [beyondNote] : [])],
    targetPercent: settings.targetPercent,
    safetyNetPercent: settings.safetyNetPercent,
    agentAutoCompactPercent: beyond ? null : agentPercent,
  };
}

/** Owns the configuration listener and re-reads the settings on every relevant change. */
export class SettingsWatcher extends Disposables {
  private readonly changed = this.own(new vscode.EventEmitter<Settings>());
  private settings = readSettings();

  readonly onDidChange = this.changed.event;

  constructor() {
    super();
    this.own(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (!event.affectsConfiguration(SECTION)) return;
        this.settings = readSettings();
        this.changed.fire(this.settings);
      }),
    );
  }

  get current(): Settings {
    return this.settings;
  }
}

/**
 * `sessionFolders` keeps only lists of non-empty strings (a hand-edited value may hold anything);
 * `claudeCode.configDirs`, the setting from before every agent had one, still adds to Claude Code's.
 */
function sessionHomesOf(folders: Record<string, unknown>, claudeConfigDirs: readonly string[]): Record<string, readonly string[]> {
  const homes: Record<string, string[]> = {};
  for (const [agent, value] of Object.entries(folders ?? {})) {
    if (Array.isArray(value)) homes[agent] = value.filter((dir): dir is string => typeof dir === 'string' && dir.trim() !== '');
  }
  if (claudeConfigDirs.length > 0) homes['claude-code'] = [...claudeConfigDirs, ...(homes['claude-code'] ?? [])];
  return homes;
}
