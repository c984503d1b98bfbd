// The fill gauge: used tokens as a bar with the thresholds marked on it. Colours come from the
// theme; every mark also carries a text label so colour is never the only cue.
import type { Fill, Thresholds } from '../src/protocol/messages';
import { formatTokens, percentOf } from '../src/protocol/format';
import { el } from './dom';

interface Mark {
  readonly percent: number;
  readonly label: string;
  readonly kind: string;
  readonly title: string;
}

function marksOf(thresholds: Thresholds): Mark[] {
  const marks: Mark[] = [
    { percent: thresholds.targetPercent, label: `${thresholds.targetPercent}`, kind: 'target', title: `Our target: compaction stops at ${thresholds.targetPercent} % (setting contextLens.trigger.targetPercent)` },
    { percent: thresholds.triggerPercent, label: `${thresholds.triggerPercent}`, kind: 'trigger', title: `Our trigger: compaction starts at ${thresholds.triggerPercent} % (setting contextLens.trigger.thresholdPercent)` },
    { percent: thresholds.safetyNetPercent, label: `${thresholds.safetyNetPercent}`, kind: 'safety', title: `Safety net: always compact at ${thresholds.safetyNetPercent} % (setting contextLens.trigger.safetyNetPercent)` },
  ];
  if (thresholds.agentAutoCompactPercent !== null) {
    const point = thresholds.agentAutoCompactPercent;
    marks.push({ percent: point, label: 'CC', kind: 'agent', title: `Claude Code compacts by itself at about ${point.toFixed(1)} % of the window` });
  }
  return marks;
}

export function renderGauge(fill: Fill | null, thresholds: Thresholds): HTMLElement {
  const percent = fill ? percentOf(fill.usedTokens, fill.windowTokens) : 0;
  const summary = fill
    ? `${fill.usedTokens.toLocaleString('en-US')} / ${fill.windowTokens.toLocaleString('en-US')} tokens · ${percent.toFixed(1)} %`
    : 'waiting for the first response';
  const source = fill ? (fill.source === 'usage' ? '(exact, from the last response\'s usage)' : '(estimate)') : '';

  const bar = el('div', {
    class: 'gauge-bar',
    role: 'meter',
    'aria-label': 'Context window fill',
    'aria-valuemin': '0',
    'aria-valuemax': String(fill?.windowTokens ?? 100),
    'aria-valuenow': String(fill?.usedTokens ?? 0),
    'aria-valuetext': summary,
  });
  const used = el('div', { class: `gauge-used ${levelOf(percent, thresholds)}` });
  used.style.width = `${Math.min(percent, 100)}%`;
  bar.appendChild(used);

  const scale = el('div', { class: 'gauge-scale' });
  for (const mark of marksOf(thresholds)) {
    const tick = el('div', { class: `gauge-mark mark-${mark.kind}`, title: mark.title, 'data-mark': mark.kind });
    tick.style.left = `${mark.percent}%`;
    bar.appendChild(tick);
    const label = el('span', { class: `gauge-label mark-${mark.kind}`, title: mark.title }, `^${mark.label}`);
    label.style.left = `${mark.percent}%`;
    scale.appendChild(label);
  }

  return el(
    'section',
    { class: 'gauge', 'aria-label': 'Fill gauge' },
    el('div', { class: 'gauge-summary' }, el('strong', { 'data-testid': 'fill-summary' }, summary), ' ', el('span', { class: 'muted' }, source)),
    bar,
    scale,
    fill ? el('div', { class: 'muted small' }, `${formatTokens(Math.max(fill.windowTokens - fill.usedTokens, 0))} free`) : null,
  );
}

function levelOf(percent: number, thresholds: Thresholds): string {
  if (thresholds.agentAutoCompactPercent !== null && percent >= thresholds.agentAutoCompactPercent) return 'level-error';
  if (percent >= thresholds.triggerPercent) return 'level-warning';
  return 'level-ok';
}
