// The fill gauge: a stacked bar by category, then free space, then the output reserved for the next
// response, with our thresholds and the agent's auto-compact point marked on it. Built once and
// updated in place, so hover tooltips survive the up-to-10/s state updates.
import { heldNotSent, liveProxyLine } from './logic/liveProxy';
import { agentLabelOr, type AgentLabel } from '../src/protocol/agents';
import { CATEGORIES, type Fill, type PanelState } from '../src/protocol/messages';
import { formatTokens } from '../src/protocol/format';
import { pricesText, sessionCostText, unpricedText } from '../src/protocol/costText';
import { CATEGORY_LABELS, CATEGORY_SHORT, exactTokens, fillSource, fillSummary, plural } from './logic/format';
import { fillLevel, gaugeMarks, gaugeSegments, INLINE_LABEL_MIN_PERCENT, placeLabels, type MarkKind, type SegmentKey } from './logic/gaugeLayout';
import { el, icon, spinningIcon } from './dom';
import { subagentRows } from './subagents';
import { subagentCostText } from './logic/costView';

const SEGMENT_KEYS: readonly SegmentKey[] = [...CATEGORIES, 'used', 'free', 'reserved'];
const MARK_KINDS: readonly MarkKind[] = ['target', 'trigger', 'safety', 'agent'];

function segmentName(key: SegmentKey): string {
  if (key === 'used') return 'used';
  if (key === 'free') return 'free';
  if (key === 'reserved') return 'reserved for output';
  return CATEGORY_LABELS[key];
}

function segmentShort(key: SegmentKey): string {
  if (key === 'used' || key === 'free') return key;
  if (key === 'reserved') return 'out';
  return CATEGORY_SHORT[key];
}

function levelText(level: 'ok' | 'warning' | 'error', agent: AgentLabel): string {
  return level === 'ok' ? '' : level === 'warning' ? 'past our trigger' : `past ${agent.name}'s auto-compact point`;
}

export class Gauge {
  readonly element: HTMLElement;
  private readonly summary = el('strong', { 'data-testid': 'fill-summary' });
  private readonly source = el('span', { class: 'muted' });
  private readonly pending = el('span', { class: 'muted', 'data-testid': 'fill-pending' });
  private readonly level = el('span', { class: 'gauge-level' });
  private readonly bar = el('div', {
    class: 'gauge-bar',
    role: 'meter',
    'aria-label': 'Context window fill',
    'aria-valuemin': '0',
    'aria-describedby': 'gauge-legend',
  });
  private readonly segments = new Map<SegmentKey, HTMLElement>();
  private readonly marks = new Map<MarkKind, { tick: HTMLElement; label: HTMLElement }>();
  /** While the live context is read: the fill above is already exact, the rest follows. */
  private readonly loading = el(
    'p',
    { class: 'gauge-loading muted', 'data-testid': 'context-loading', role: 'status' },
    spinningIcon('loading'),
    ' Reading the live context: the breakdown and the map follow…',
  );
  /** What the live proxy did with the agent's last request, when one went through it. */
  private readonly liveProxyText = el('span');
  private readonly liveProxy = el(
    'p',
    { class: 'gauge-live-proxy small', 'data-testid': 'live-proxy', role: 'status' },
    icon('radio-tower'),
    ' ',
    this.liveProxyText,
  );
  /** Past the fill: what the agent holds that the live edits kept from the model. */
  private readonly held = el('div', { class: 'gauge-held', 'data-testid': 'gauge-held', 'aria-hidden': 'true' });
  /** What the session cost so far, next to the fill; absent until its calls were read. */
  private readonly costText = el('span');
  private readonly cost = el('p', { class: 'gauge-cost small', 'data-testid': 'session-cost' }, icon('credit-card'), ' ', this.costText);
  /** Cache health under the bar: "cache 91 % · 4 misses cost $1.62, 3 of them idle gaps"; the misses on hover. */
  private readonly cacheText = el('span');
  private readonly cache = el('p', { class: 'gauge-cache small', 'data-testid': 'cache-health', tabindex: '0' }, icon('database'), ' ', this.cacheText);
  /** Each subagent's calls, fill and cost (folded; open stays open across updates). */
  private readonly subagents = el('details', { class: 'gauge-subagents small', 'data-testid': 'subagents' });
  /** The marks' names under the bar, on as many lines as they need not to overlap. */
  private readonly scale = el('div', { class: 'gauge-scale', 'data-testid': 'gauge-scale' });
  private readonly legend = el('ul', { class: 'legend', id: 'gauge-legend', 'data-testid': 'legend', 'aria-label': 'Tokens per category' });

  constructor() {
    for (const key of SEGMENT_KEYS) {
      // Segments are decorative inside the meter; the legend below carries the same facts as text.
      const segment = el('div', { class: `gauge-segment segment-${key}`, 'aria-hidden': 'true' });
      this.segments.set(key, segment);
      this.bar.appendChild(segment);
    }
    this.bar.appendChild(this.held);
    const scale = this.scale;
    for (const kind of MARK_KINDS) {
      const tick = el('div', { class: `gauge-mark mark-${kind}`, 'data-testid': `gauge-mark-${kind}`, 'aria-hidden': 'true' });
      const label = el('span', { class: `gauge-label mark-${kind}`, tabindex: '0', role: 'note' });
      this.bar.appendChild(tick);
      scale.appendChild(label);
      this.marks.set(kind, { tick, label });
    }
    // The marks' lines depend on the bar's width: placed again when the panel is resized.
    new ResizeObserver(() => {
      if (this.shownThresholds) this.updateMarks(this.shownThresholds);
    }).observe(this.bar);
    this.element = el(
      'section',
      { class: 'gauge', 'aria-label': 'Fill gauge' },
      el('div', { class: 'gauge-summary' }, this.summary, ' ', this.source, ' ', this.pending, ' ', this.level),
      this.cost,
      this.subagents,
      this.loading,
      this.liveProxy,
      this.bar,
      scale,
      this.cache,
      this.legend,
      this.notes,
    );
  }

  /** Why a mark is not where its setting says: a derived trigger, a refused setting. */
  private readonly notes = el('ul', { class: 'gauge-notes', 'data-testid': 'threshold-notes', 'aria-live': 'polite' });

  update(state: PanelState): void {
    const fill = state.fill;
    this.summary.textContent = fill ? fillSummary(fill) : state.empty === 'readingSession' ? 'reading the session…' : 'waiting for the first response';
    this.source.textContent = fill ? fillSource(fill) : '';
    this.pending.textContent = fill?.pendingTokens ? `+ ~${formatTokens(fill.pendingTokens)} since the last response (estimate)` : '';
    const level = fill ? fillLevel(fill, state.thresholds) : 'ok';
    this.level.textContent = levelText(level, agentLabelOr(state.session?.agentLabel));
    this.element.dataset.level = level;
    this.loading.hidden = !(fill && state.contextLoading);
    // A state saved by an earlier version of the panel has no liveProxy field.
    this.liveProxy.hidden = !state.liveProxy;
    this.liveProxyText.textContent = state.liveProxy ? liveProxyLine(state.liveProxy) : '';
    const held = fill && state.liveProxy ? heldNotSent(fill, state.liveProxy) : null;
    this.held.hidden = held === null;
    if (held) {
      this.held.style.left = `${held.left}%`;
      this.held.style.width = `${held.width}%`;
      this.held.title = held.title;
    }

    this.updateCost(state);
    this.bar.setAttribute('aria-valuemax', String(fill?.windowTokens ?? 100));
    this.bar.setAttribute('aria-valuenow', String(fill?.usedTokens ?? 0));
    this.bar.setAttribute('aria-valuetext', this.summary.textContent);
    this.updateSegments(fill, state);
    this.updateMarks(state);
    this.notes.replaceChildren(...state.thresholds.notes.map((note) => el('li', {}, icon(/^(Target|Safety net)/.test(note) ? 'warning' : 'info'), ` ${note}`)));
    this.notes.hidden = state.thresholds.notes.length === 0;
  }

  private updateSegments(fill: Fill | null, state: PanelState): void {
    const shown = fill ? gaugeSegments(fill, state.breakdown, state.reservedOutputTokens) : [];
    const byKey = new Map(shown.map((segment) => [segment.key, segment]));
    for (const [key, node] of this.segments) {
      const segment = byKey.get(key);
      node.hidden = !segment || segment.percent <= 0;
      if (!segment) continue;
      node.style.width = `${segment.percent}%`;
      node.title = `${segmentName(key)}: ${exactTokens(segment.count)} tokens`;
      node.textContent = segment.percent >= INLINE_LABEL_MIN_PERCENT ? segmentShort(key) : '';
    }
    this.legend.replaceChildren(
      ...shown
        .filter((segment) => segment.count > 0)
        .map((segment) =>
          el(
            'li',
            { title: `${exactTokens(segment.count)} tokens` },
            el('span', { class: `swatch segment-${segment.key}`, 'aria-hidden': 'true' }),
            `${segmentName(segment.key)} ${formatTokens(segment.count)}`,
          ),
        ),
    );
  }

  private updateCost(state: PanelState): void {
    // A state saved by an earlier version of the panel has no cost field.
    const cost = state.cost ?? null;
    this.cost.hidden = cost === null || !state.fill;
    this.subagents.hidden = cost === null || !state.fill || cost.subagents.length === 0;
    const cache = cost?.cache ?? null;
    this.cache.hidden = cache === null || !state.fill;
    if (cache !== null) {
      this.cacheText.textContent = cache.sentence;
      this.cache.classList.toggle('has-misses', cache.misses > 0);
      this.cache.title = [
        'What each call read from the prompt cache; a miss read less than half of what the call before sent and paid for the rest again. Its cost is that beyond a hit.',
        ...cache.detail,
      ].join('\n');
    }
    if (cost === null) return;
    this.subagents.replaceChildren(...subagentRows(cost));
    const unpriced = unpricedText(cost);
    this.costText.textContent = `Session cost: ${sessionCostText(cost)}${unpriced ? ` · ${unpriced}` : ''}`;
    const subagents = cost.subagents.map((agent) => `  ${agent.title}: ${plural(agent.calls, 'call')}, ${subagentCostText(agent)}`);
    this.cost.title = [
      `Every call of the session${subagents.length > 0 ? ' and its subagents' : ''}, at the price it paid (${pricesText(cost)})`,
      ...subagents,
      ...(cost.problem ? [cost.problem] : []),
    ].join('\n');
  }

  /** What the marks were last drawn from, to place their names again on a resize. */
  private shownThresholds: Pick<PanelState, 'thresholds' | 'session'> | null = null;

  private updateMarks(state: Pick<PanelState, 'thresholds' | 'session'>): void {
    this.shownThresholds = state;
    const shown = gaugeMarks(state.thresholds, agentLabelOr(state.session?.agentLabel));
    const marks = new Map(shown.map((mark) => [mark.kind, mark]));
    // The bar's width in label characters (about 0.6 em each); before layout, a typical panel's.
    const fontSize = parseFloat(getComputedStyle(this.scale).fontSize) || 11;
    const placed = new Map(placeLabels(shown, this.bar.clientWidth ? this.bar.clientWidth / (fontSize * 0.6) : 150).map((label) => [label.kind, label]));
    this.scale.dataset.rows = String(Math.max(1, ...[...placed.values()].map((label) => label.row + 1)));
    for (const [kind, { tick, label }] of this.marks) {
      const mark = marks.get(kind);
      tick.hidden = label.hidden = !mark;
      if (!mark) continue;
      label.dataset.row = String(placed.get(kind)?.row ?? 0);
      label.dataset.align = placed.get(kind)?.align ?? 'center';
      tick.dataset.percent = String(mark.percent);
      tick.style.left = label.style.left = `${mark.percent}%`;
      tick.title = label.title = mark.title;
      label.textContent = mark.label;
      label.setAttribute('aria-label', mark.title);
    }
  }
}
