// `$(pulse) 62% · 124k/200k` in the status bar: warning colour past our trigger, error colour past
// the agent's own auto-compact point. Click opens the panel.
import * as vscode from 'vscode';
import type { PanelState } from '../protocol/messages';
import { formatTokens, percentOf } from '../protocol/format';
import { legendOf } from './context/derive';
import { sessionCostText, unpricedText } from '../protocol/costText';
import { Disposables } from './disposables';
import { thousands } from '../base/format';

export class FillStatusBar extends Disposables {
  private readonly item = this.own(vscode.window.createStatusBarItem('contextLens.fill', vscode.StatusBarAlignment.Right, 100));

  constructor(openPanelCommand: string) {
    super();
    this.item.name = 'Context Lens: context fill';
    this.item.command = openPanelCommand;
  }

  /** `showCost`: the session's cost in the tooltip (setting contextLens.cost.showInStatusBar). */
  render(state: PanelState, enabled: boolean, showCost = false): void {
    if (!enabled) {
      this.item.hide();
      return;
    }
    const { fill, thresholds } = state;
    if (!fill) {
      this.item.text = '$(pulse) —';
      this.item.tooltip = !state.session
        ? 'Context Lens: no agent session found'
        : state.empty === 'readingSession'
          ? 'Context Lens: reading the session'
          : 'Context Lens: waiting for the first response';
      this.item.backgroundColor = undefined;
      this.item.accessibilityInformation = { label: `Context Lens: ${this.item.tooltip}` };
      this.item.show();
      return;
    }
    const percent = percentOf(fill.usedTokens, fill.windowTokens);
    this.item.text = `$(pulse) ${Math.round(percent)}% · ${formatTokens(fill.usedTokens)}/${formatTokens(fill.windowTokens)}`;
    const agentPoint = thresholds.agentAutoCompactPercent;
    if (agentPoint !== null && percent >= agentPoint) this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
    else if (percent >= thresholds.triggerPercent) this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    else this.item.backgroundColor = undefined;
    this.item.tooltip = this.tooltip(state, percent, showCost);
    this.item.accessibilityInformation = { label: `Context Lens: context ${Math.round(percent)} percent full` };
    this.item.show();
  }

  private tooltip(state: PanelState, percent: number, showCost: boolean): vscode.MarkdownString {
    const fill = state.fill!;
    const lines = [
      `**Context Lens** — ${state.session?.title ?? 'session'}`,
      '',
      `${thousands(fill.usedTokens)} / ${thousands(fill.windowTokens)} tokens · ${percent.toFixed(1)} % (${fill.source === 'usage' ? 'exact, from the last response' : 'estimate'})`,
      '',
      // Escaped: a line starting with `+` is a list item in Markdown.
      ...(fill.pendingTokens ? [`\\+ ~${formatTokens(fill.pendingTokens)} written since the last response (estimate)`, ''] : []),
      ...(state.breakdown.length > 0 ? [legendOf(state.breakdown, formatTokens), ''] : []),
      `Our trigger ${state.thresholds.triggerPercent} % · target ${state.thresholds.targetPercent} % · safety net ${state.thresholds.safetyNetPercent} %`,
    ];
    const agentPoint = state.thresholds.agentAutoCompactPercent;
    if (agentPoint !== null) {
      const distance = Math.round(((agentPoint - percent) / 100) * fill.windowTokens);
      lines.push(
        '',
        distance > 0 ? `${formatTokens(distance)} tokens until the agent auto-compacts (${agentPoint.toFixed(1)} %)` : "Past the agent's auto-compact point",
      );
    }
    if (showCost && state.cost) {
      const unpriced = unpricedText(state.cost);
      lines.push('', `Cost: ${sessionCostText(state.cost)}`, ...(unpriced ? ['', unpriced] : []));
    }
    const markdown = new vscode.MarkdownString(lines.join('\n'));
    markdown.isTrusted = false;
    return markdown;
  }
}
