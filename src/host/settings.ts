// Typed view of the `contextLens.*` settings, re-read whenever they change so every consumer
// (gauge marks, status bar colours, the next plan) reacts without a reload.
import * as vscode from 'vscode';
import type { Thresholds } from '../protocol/messages';
import { SETTING_DEFAULTS, type SettingKey } from './settingDefaults';

export interface Settings {
  readonly triggerPercent: number;
  readonly targetPercent: number;
  readonly safetyNetPercent: number;
  /** 0 = take the window from the model. */
  readonly windowTokensOverride: number;
  readonly claudeConfigDirs: readonly string[];
  readonly statusBarEnabled: boolean;
}

const SECTION = 'contextLens';

export function readSettings(scope?: vscode.ConfigurationScope): Settings {
  const config = vscode.workspace.getConfiguration(SECTION, scope);
  const get = <K extends SettingKey>(key: K): (typeof SETTING_DEFAULTS)[K] => config.get(key, SETTING_DEFAULTS[key]);
  const triggerPercent = get('trigger.thresholdPercent');
  // Hysteresis only works when the target sits below the trigger; clamp rather than refuse.
  const targetPercent = Math.min(get('trigger.targetPercent'), triggerPercent - 1);
  return {
    triggerPercent,
    targetPercent,
    safetyNetPercent: Math.max(get('trigger.safetyNetPercent'), triggerPercent),
    windowTokensOverride: get('window.overrideTokens'),
    claudeConfigDirs: get('claudeCode.configDirs'),
    statusBarEnabled: get('statusBar.enabled'),
  };
}

export function thresholdsOf(settings: Settings, agentAutoCompactPercent: number | null): Thresholds {
  return {
    triggerPercent: settings.triggerPercent,
    targetPercent: settings.targetPercent,
    safetyNetPercent: settings.safetyNetPercent,
    agentAutoCompactPercent,
  };
}

/** Owns the configuration listener and re-reads the settings on every relevant change. */
export class SettingsWatcher implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Settings>();
  private readonly listener: vscode.Disposable;
  private settings = readSettings();

  readonly onDidChange = this.changed.event;

  constructor() {
    this.listener = vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration(SECTION)) return;
      this.settings = readSettings();
      this.changed.fire(this.settings);
    });
  }

  get current(): Settings {
    return this.settings;
  }

  dispose(): void {
    this.listener.dispose();
    this.changed.dispose();
  }
}
