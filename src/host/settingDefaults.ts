// Defaults of the `contextLens.*` settings, kept free of `vscode` so a test can check them against
// package.json's contributes.configuration (the two must never drift apart).
export const SETTING_DEFAULTS = {
  'trigger.thresholdPercent': 85,
  'trigger.targetPercent': 60,
  'trigger.safetyNetPercent': 95,
  'window.overrideTokens': 0,
  'claudeCode.configDirs': [] as string[],
  'statusBar.enabled': true,
};

export type SettingKey = keyof typeof SETTING_DEFAULTS;
