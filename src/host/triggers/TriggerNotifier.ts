// Offers a compaction when the live fill crosses the trigger or the safety net, through the engine's
// TriggerController (hysteresis, safety net, circuit breaker after low-savings compactions). A notice
// never compacts by itself: the person picks Compact… (with a focus) or Preview.
import * as vscode from 'vscode';
import { DEFAULT_OPTIONS, TriggerController } from '../../engine';
import { Commands } from '../commands';
import type { OurCompaction } from '../history/history';
import type { HistoryStore } from '../history/HistoryStore';
import type { SessionService } from '../sessions/SessionService';
import { agentPercentOf, triggerOf, type Settings, type SettingsWatcher } from '../settings';
import { nudgeFor, type NudgeState } from './nudge';
import { inBackground } from '../background';
import { Disposables } from '../disposables';

export class TriggerNotifier extends Disposables {
  private controller: TriggerController;
  private readonly state: NudgeState = { offered: null };
  private sessionPath: string | null = null;
  private recorded = 0;

  constructor(
    private readonly sessions: SessionService,
    private readonly settings: SettingsWatcher,
    private readonly history: HistoryStore,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this.controller = controllerOf(settings.current, null);
    this.own(
      settings.onDidChange(() => {
        this.controller = controllerOf(this.settings.current, this.agentPercent());
      }),
    );
    this.own(sessions.onDidChange(() => this.check()));
    this.own(history.onDidChange(() => this.recordApplied()));
  }

  private check(): void {
    const { session, fill } = this.sessions.current;
    if (session?.path !== this.sessionPath) {
      // Another session: its own climb, its own compactions.
      this.sessionPath = session?.path ?? null;
      this.state.offered = null;
      this.controller = controllerOf(this.settings.current, this.agentPercent());
      this.recorded = session ? this.history.of(session.path).length : 0;
    }
    if (!fill || fill.source !== 'usage' || !this.settings.current.notifyOnTrigger) return;
    // The first fill of a session tells where its agent compacts, which may move our trigger.
    const trigger = triggerOf(this.settings.current, this.agentPercent()).percent;
    if (trigger !== this.controllerTrigger) this.controller = controllerOf(this.settings.current, this.agentPercent());
    const decision = this.controller.decide({ usedTokens: fill.usedTokens, windowTokens: fill.windowTokens });
    if (decision.action === 'blocked') this.log.info(`Not offering a compaction: ${decision.reason}`);
    const { targetPercent, safetyNetPercent } = this.settings.current;
    const agentName = this.sessions.current.handle?.adapter.name ?? 'the agent';
    const nudge = nudgeFor(
      decision,
      {
        usedTokens: fill.usedTokens,
        windowTokens: fill.windowTokens,
        agentAutoCompactTokens: fill.agentAutoCompactTokens,
        agentName,
        targetPercent,
        safetyNetPercent,
      },
      this.state,
    );
    if (!nudge) return;
    this.log.info(`Offering a compaction (${nudge.level}): ${decision.reason}`);
    const show = nudge.level === 'safety-net' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    void show(nudge.message, 'Compact…', 'Preview').then((choice) => {
      if (choice === 'Compact…') inBackground(vscode.commands.executeCommand(Commands.compact), this.log, 'Compact… from the notification');
      else if (choice === 'Preview') inBackground(vscode.commands.executeCommand(Commands.previewCompaction), this.log, 'Preview from the notification');
    });
  }

  /** Our applied compactions feed the breaker: enough of them in a row that saved too little silence the offers. */
  private recordApplied(): void {
    if (this.sessionPath === null) return;
    const ours: readonly OurCompaction[] = this.history.of(this.sessionPath);
    for (const entry of ours.slice(this.recorded)) {
      this.controller.record({ status: 'compacted', metrics: { savingsPercent: entry.savingsPct, tokensAfter: entry.afterTokens } });
    }
    this.recorded = ours.length;
  }

  private get controllerTrigger(): number {
    return this.controller.options.thresholdPercent;
  }

  private agentPercent(): number | null {
    return agentPercentOf(this.sessions.current.fill);
  }
}

function controllerOf(settings: Settings, agentPercent: number | null): TriggerController {
  return new TriggerController({
    thresholdPercent: triggerOf(settings, agentPercent).percent,
    targetPercent: settings.targetPercent,
    safetyNetPercent: settings.safetyNetPercent,
    minSavingsPercent: settings.engine.minSavingsPercent ?? DEFAULT_OPTIONS.minSavingsPercent,
    maxConsecutiveLowSavings: settings.maxConsecutiveLowSavings,
  });
}
