// Entry point of the panel webview. It renders what the host sends and computes nothing itself:
// each section is built once and updated from the messages, so a 10/s stream of states never
// rebuilds the region map or loses the user's focus, selection or scroll position.
import {
  parseHostMessage,
  previewSchema,
  REFUSED_DETAIL_MAX,
  salvageStateMessage,
  type ChoiceAction,
  type HostMessage,
  type PanelState,
  type PlanView,
  type Preview,
} from '../src/protocol/messages';
import { DetailPane } from './detailPane';
import { Disclosures } from './disclosure';
import { el, KeyedSection } from './dom';
import { renderDiagnostics, renderEmpty } from './empty';
import { Gauge } from './gauge';
import { createHeader } from './header';
import { renderHistory, type HistoryInput } from './history';
import { beforeAfter, savingsText } from './logic/format';
import { renderPreview, renderProgress } from './preview';
import { RegionMap } from './regionMap';
import { withPlanCosts } from './logic/costView';
import { switchedSession, type ShownSession } from './logic/sessionSwitch';
import { SummaryEditor } from './summaryEditor';
import { renderTimeline, timelineInput } from './timeline';
import { post, savedState, saveState, type UiState } from './vscodeApi';

const root = document.getElementById('app')!;

const header = createHeader();
const gauge = new Gauge();
const empty = new KeyedSection(el('div'), renderEmpty);
const diagnostics = new KeyedSection(el('div'), renderDiagnostics);

const previous = savedState();
// The map opens at its top (the system head, then the oldest turns); scrolled to the end it follows new items.
let ui: UiState = previous.ui ?? { selectedId: null, filter: '', scrollTop: 0, expanded: [] };
let plan: PlanView | null = previous.plan ?? null;
// A preview saved by an earlier version of the panel lacks newer fields: read through the schema's defaults.
let preview: Preview | null = previewSchema.nullable().safeParse(previous.preview ?? null).data ?? null;
/** What the host last sent whole or patched; a restored one stands until the host's first state. */
let panelState: PanelState | null = null;

function rememberUi(part: Partial<UiState>): void {
  ui = { ...ui, ...part };
  saveState({ ui });
}

const disclosures = new Disclosures(ui.expanded, (expanded) => rememberUi({ expanded }));
const progress = new KeyedSection(el('div'), renderProgress);
const previewSection = el('div');
// Stable wrappers (their content is rebuilt when it changes): what a test scrolls to stays attached.
const timeline = new KeyedSection(el('div', { 'data-testid': 'timeline-section' }), renderTimeline);
const history = new KeyedSection(el('div', { 'data-testid': 'history-section' }), (input: HistoryInput) => renderHistory(input, disclosures));

const summaryEditor = new SummaryEditor(() => renderPreviewSection());

function renderPreviewSection(): void {
  const restoreFocus = summaryEditor.keepFocus();
  previewSection.replaceChildren(...renderPreview(preview, disclosures, summaryEditor));
  previewSection.hidden = preview === null;
  restoreFocus();
}

/** Preview messages are rare (only on change) and may carry 10k regions: rebuilt, never diffed. */
function showPreview(): void {
  // No summary to edit any more (a recomputation that summarises nothing): no edit holds Apply back.
  if (preview?.summary == null) summaryEditor.reset();
  renderPreviewSection();
  showRegions();
  refreshDetail();
}

const choose = (action: ChoiceAction): void => post({ type: 'choice', action });
const detail = new DetailPane(() => saveState({ detail: null }), choose);
const regionMap = new RegionMap(ui, {
  open(id) {
    detail.request(id);
    post({ type: 'itemDetail', id });
  },
  changed: rememberUi,
  choose,
});

/** The open item's fate and reason come from the plan or preview shown: ask again when that changes. */
function refreshDetail(): void {
  refreshingDetail = detail.shownId;
  if (refreshingDetail !== null) post({ type: 'itemDetail', id: refreshingDetail });
}
/** The item asked for again by `refreshDetail`: updated in place, without scrolling to it. */
let refreshingDetail: number | null = null;

/** The map shows the preview's regions while a preview is up, else the live plan's. */
function showRegions(): void {
  if (preview) {
    regionMap.setRegions(
      withPlanCosts(preview.regions, plan?.regions),
      `Preview · "${preview.focus || 'no focus'}"`,
      savingsText(preview.beforeTokens, preview.afterTokens, preview.savingsPct),
    );
  } else if (plan) {
    regionMap.setRegions(
      plan.regions,
      `What Compact… would do: ${beforeAfter(plan.beforeTokens, plan.afterTokens, null)}`,
      savingsText(plan.beforeTokens, plan.afterTokens, plan.savingsPct),
    );
  }
  // The choices belong to the session, not to a run: the plan carries the current ones.
  if (plan) regionMap.setChoices(plan.choices);
  // Without a plan or preview there is nothing to map (no session yet): no empty grid either.
  regionMap.element.hidden = !preview && !plan;
}

/** The session the panel shows, to notice a switch (see logic/sessionSwitch.ts). */
let shownSession: ShownSession;

function showState(state: PanelState): void {
  const sessionId = state.session?.id ?? null;
  if (switchedSession(shownSession, sessionId)) {
    detail.hide();
    saveState({ detail: null });
    regionMap.resetForSession();
  }
  shownSession = sessionId;
  header.session.update(state.session);
  header.hooks.update(state.hooks);
  gauge.update(state);
  empty.update(state.empty);
  diagnostics.update(state.diagnostics);
  timeline.update(timelineInput(state));
  // A state saved by an earlier version of the panel has no live items.
  regionMap.setLive(state.liveProxy?.items ?? []);
  // A state saved by an earlier version of the panel has no cost.
  regionMap.setCost(state.cost ?? null);
  history.update({ entries: state.history, agent: state.session?.agentLabel, audits: state.cost?.audits ?? [] });
  // The e2e harness waits for this before reading the panel, so it is set after real content.
  root.setAttribute('data-ready', 'true');
}

function handle(message: HostMessage): void {
  switch (message.type) {
    case 'state':
      panelState = message.state;
      saveState({ panel: panelState });
      showState(panelState);
      return;
    case 'statePatch':
      // A patch applies to the state this webview holds; before the first whole state there is none.
      if (!panelState) return;
      panelState = { ...panelState, ...message.patch };
      saveState({ panel: panelState });
      showState(panelState);
      return;
    case 'plan':
      plan = message.plan;
      saveState({ plan });
      if (!preview) {
        showRegions();
        refreshDetail();
      } else if (plan) regionMap.setChoices(plan.choices);
      return;
    case 'preview':
      preview = message.preview;
      saveState({ preview });
      showPreview();
      return;
    case 'progress':
      progress.update(message.progress);
      return;
    case 'itemDetail':
      // Only a reply the pane still waits for: one asked before a session switch closed it must not reopen the old session's item.
      if (detail.wants(message.detail.id) && detail.show(message.detail)) {
        saveState({ detail: message.detail });
        // At the default panel height the pane sits below the map: bring it into view (once).
        if (message.detail.id !== refreshingDetail) detail.element.scrollIntoView({ block: 'nearest' });
        refreshingDetail = null;
      }
      return;
  }
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = parseHostMessage(event.data);
  if (parsed.ok) return handle(parsed.value);
  // A state that broke the contract still shows its good parts; the host's log says what was refused.
  const salvaged = salvageStateMessage(event.data);
  const detail = salvaged ? salvaged.refused.join('\n') : parsed.error;
  console.warn(`Context Lens: refused ${salvaged ? 'part of the state' : 'a malformed message'} from the host: ${detail}`);
  post({ type: 'refused', detail: detail.slice(0, REFUSED_DETAIL_MAX) });
  if (salvaged) handle({ type: 'statePatch', patch: salvaged.patch });
});

// `/` jumps to the filter from anywhere except a text field, as in VS Code's own lists.
document.addEventListener('keydown', (event) => {
  const target = event.target as HTMLElement;
  if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || target.closest('input, textarea, vscode-textfield, vscode-textarea')) return;
  event.preventDefault();
  regionMap.focusFilter();
});

root.replaceChildren(
  header.element,
  gauge.element,
  empty.element,
  diagnostics.element,
  timeline.element,
  progress.element,
  previewSection,
  regionMap.element,
  detail.element,
  history.element,
);
progress.update(null);
if (previous.panel) showState(previous.panel);
showPreview();
if (previous.detail) detail.show(previous.detail);
post({ type: 'ready' });
