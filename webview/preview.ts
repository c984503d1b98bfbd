// The compaction preview (Compact… / Preview): what the run would save, the person's choices it was
// computed with, how it was verified, the summary (editable) and a side-by-side diff, with Apply /
// Open in Diff Editor / Cancel, and says so when the summarizer fell back or the result may still
// overflow. Out of date (an input changed since), it says why and Apply waits for a recomputation.
// Once applied it says which fork was written and how to resume it. Also the progress of a running compaction.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import type { Preview, VerificationView, WebviewMessage } from '../src/protocol/messages';
import { TIER_NAMES } from '../src/protocol/categories';
import { custom, el, icon, spinningIcon } from './dom';
import { renderDiffBlock } from './diffView';
import type { Disclosures } from './disclosure';
import { exactTokens, plural } from './logic/format';
import type { SummaryEditor } from './summaryEditor';
import { post } from './vscodeApi';

type PreviewAction = Extract<WebviewMessage, { type: 'previewAction' }>['action'];

function actionButton(
  preview: Preview,
  action: PreviewAction,
  label: string,
  iconName: string,
  testId: string,
  secondary: boolean,
  disabledWhy: string | null = null,
): HTMLElement {
  const button = custom(
    'vscode-button',
    { icon: iconName, 'data-testid': testId, ...(secondary ? { secondary: '' } : {}), ...(disabledWhy ? { disabled: '', title: disabledWhy } : {}) },
    label,
  );
  button.addEventListener('click', () => {
    // A disabled vscode-button still lets the click through to listeners.
    if (!button.hasAttribute('disabled')) post({ type: 'previewAction', previewId: preview.id, action });
  });
  return button;
}

/** Verification as words with an icon each, shared with the history entries. */
export function renderVerification(verification: VerificationView): HTMLElement {
  const kept = verification.constraintsKept === verification.constraintsTotal;
  const items: HTMLElement[] = [
    el('li', {}, icon(kept ? 'pass' : 'warning'), ` constraints kept ${verification.constraintsKept}/${verification.constraintsTotal}`),
    el(
      'li',
      {
        title:
          'Open loops: questions, TODOs and next steps still pending in the conversation. After a compaction the summary lists them again, so the count may grow; it should not shrink.',
      },
      icon('issues'),
      ` open loops (pending questions and next steps) ${verification.openLoopsBefore} before → ${verification.openLoopsAfter} after`,
      verification.openLoopsAfter < verification.openLoopsBefore
        ? el('span', { class: 'muted' }, ' — some may be lost')
        : el('span', { class: 'muted' }, ' — none lost'),
    ),
  ];
  if (verification.reinjected.length)
    items.push(el('li', {}, icon('debug-restart'), ` re-injected: `, el('ul', {}, ...verification.reinjected.map((text) => el('li', {}, text)))));
  if (verification.contradictions.length) {
    const stale = verification.contradictions.map(({ line, laterItemId, laterText }) =>
      el('li', {}, el('q', {}, line), el('span', { class: 'muted' }, ` — but #${laterItemId} says: `), el('q', {}, laterText)),
    );
    items.push(el('li', { 'data-testid': 'stale-lines' }, icon('warning'), ` stale in the summary (a later item says otherwise): `, el('ul', {}, ...stale)));
  }
  if (verification.filesLost.length)
    items.push(el('li', {}, icon('warning'), ` files lost: `, el('ul', {}, ...verification.filesLost.map((file) => el('li', { class: 'mono' }, file)))));
  return el(
    'ul',
    {
      class: `verification ${verification.ok ? 'verified' : 'unverified'}`,
      'aria-label': verification.ok ? 'Verification passed' : 'Verification found problems',
    },
    el('li', { class: 'verdict' }, icon(verification.ok ? 'verified' : 'error'), verification.ok ? ' verified' : ' not verified'),
    ...items,
  );
}

/** The run's warnings in words with a warning icon, coloured like an unverified verdict (theme colours). */
function renderWarnings(preview: Preview): HTMLElement | null {
  const warnings = [preview.summaryFallback, preview.overflow].filter((text): text is string => Boolean(text));
  if (!warnings.length) return null;
  return el(
    'ul',
    { class: 'verification unverified', 'data-testid': 'preview-warnings', 'aria-label': 'Warnings' },
    ...warnings.map((text) => el('li', { class: 'verdict' }, icon('warning'), ` ${text}`)),
  );
}

function renderApplied(preview: Preview): HTMLElement | null {
  const fork = preview.applied;
  if (!fork) return null;
  return el(
    'div',
    { class: 'applied', role: 'status' },
    el('p', { 'data-testid': 'preview-applied' }, icon('pass'), ' Fork written: ', el('strong', { class: 'mono' }, fork.sessionId)),
    el('p', { class: 'muted small mono', title: fork.path }, fork.resumeCommand),
    el(
      'div',
      { class: 'actions' },
      actionButton(preview, 'resumeInTerminal', 'Resume in Terminal', 'terminal', 'preview-resume', false),
      actionButton(preview, 'copyResumeCommand', 'Copy resume command', 'copy', 'preview-copy', true),
    ),
  );
}

/**
 * Out of date: what changed since the preview was computed, and either that it is being computed
 * again or a button to do it. Apply stays disabled meanwhile.
 */
function renderStale(preview: Preview): HTMLElement | null {
  const stale = preview.stale;
  if (!stale || preview.applied) return null;
  return el(
    'div',
    { class: 'preview-stale', role: 'status', 'data-testid': 'preview-stale', 'data-refreshing': String(stale.refreshing) },
    stale.refreshing ? spinningIcon('sync') : icon('warning'),
    el('span', {}, ` Out of date: ${stale.why}. `, stale.refreshing ? 'Computing it again…' : 'Apply waits until it is computed again.'),
    stale.refreshing ? null : actionButton(preview, 'refresh', 'Refresh preview', 'refresh', 'preview-refresh', false),
  );
}

/** "Your choices: kept 1 (#47) · dropped 1 (#12) · 1 pinned sentence, −3,210 tokens": what this preview was computed with. */
function renderChoices(preview: Preview): HTMLElement | null {
  const { keep, drop, pins } = preview.choices;
  if (keep.length + drop.length + pins.length === 0) return null;
  const ids = (list: readonly number[]) =>
    ` (${list
      .slice(0, 8)
      .map((id) => `#${id}`)
      .join(', ')}${list.length > 8 ? ', …' : ''})`;
  const parts = [
    keep.length ? `kept ${keep.length}${ids(keep)}` : null,
    drop.length ? `dropped ${drop.length}${ids(drop)}` : null,
    pins.length ? plural(pins.length, 'pinned sentence') : null,
  ].filter((part): part is string => part !== null);
  // The engine's "choice" step holds only what the drops saved: shown here, beside the keeps.
  const saved = preview.tiers.find((tier) => tier.tier === 'choice')?.tokensSaved ?? 0;
  return el(
    'p',
    { 'data-testid': 'preview-choices' },
    el('strong', {}, 'Your choices: '),
    parts.join(' · '),
    saved > 0 ? el('span', { class: 'muted' }, ` — drops save ${exactTokens(saved)} tokens`) : null,
  );
}

export function renderPreview(preview: Preview | null, disclosures: Disclosures, summaryEditor: SummaryEditor): HTMLElement[] {
  if (!preview) return [];
  const verification = preview.verification ? renderVerification(preview.verification) : el('p', { class: 'muted' }, 'Not verified.');
  // Only the steps that did something ("−0 tokens" rows say nothing); the person's own are listed above.
  const acted = preview.tiers.filter((tier) => tier.items > 0 && tier.tier !== 'choice');
  const tiers = acted.length
    ? el(
        'ul',
        { class: 'tiers', 'data-testid': 'preview-tiers' },
        ...acted.map((tier) =>
          el(
            'li',
            {},
            el('strong', {}, TIER_NAMES[tier.tier] ?? tier.tier),
            `: ${plural(tier.items, 'item')}, −${exactTokens(Math.max(tier.tokensSaved, 0))} tokens`,
            tier.note ? el('span', { class: 'muted' }, ` (${tier.note})`) : '',
          ),
        ),
      )
    : null;
  const focusKept = preview.regions.filter((region) => region.protection === 'focus').map((region) => `#${region.id}`);
  const focus = el(
    'p',
    { 'data-testid': 'preview-focus' },
    'Focus: ',
    preview.focus ? el('q', {}, preview.focus) : el('span', { class: 'muted' }, 'none'),
    preview.focus
      ? el(
          'span',
          { class: 'muted' },
          focusKept.length
            ? ` · kept ${focusKept.slice(0, 12).join(', ')}${focusKept.length > 12 ? ` and ${focusKept.length - 12} more` : ''} verbatim`
            : ' · matched nothing the ladder would have touched',
        )
      : null,
  );
  const summaryTitle = preview.summaryEdited ? ['Summary ', el('span', { class: 'muted' }, '(edited by you)')] : ['Summary'];
  const summary = preview.summary ? disclosures.details('preview-summary', summaryTitle, [summaryEditor.render(preview)], true) : null;
  const diff = disclosures.details(
    'preview-diff',
    [`Changes (${plural(preview.diff.length, 'item')})`],
    preview.diff.length ? preview.diff.map(renderDiffBlock) : [el('p', { class: 'muted' }, 'Nothing changes.')],
    true,
  );
  const applyBlocked = preview.stale ? `Out of date: ${preview.stale.why}` : summaryEditor.editing ? 'Use or discard your edited summary first' : null;
  const actions = preview.applied
    ? renderApplied(preview)
    : el(
        'div',
        { class: 'actions' },
        preview.status === 'compacted' ? actionButton(preview, 'apply', 'Apply', 'check', 'preview-apply', false, applyBlocked) : null,
        actionButton(preview, 'openDiff', 'Open in Diff Editor', 'diff', 'preview-open-diff', true),
        actionButton(preview, 'cancel', 'Cancel', 'close', 'preview-cancel', true),
      );
  return [
    el(
      'section',
      { class: 'preview', 'data-testid': 'preview', 'data-stale': String(preview.stale !== null), 'aria-labelledby': 'preview-title' },
      el(
        'div',
        { class: 'section-title' },
        el('h2', { id: 'preview-title' }, 'Compaction preview'),
        el('span', { class: 'muted' }, `summarizer: ${preview.summaryEdited ? 'your text' : preview.summarizer}`),
      ),
      renderStale(preview),
      el('p', { class: 'preview-headline', 'data-testid': 'preview-headline' }, headline(preview)),
      renderBreakEven(preview),
      renderChoices(preview),
      focus,
      preview.redactions > 0
        ? el('p', { class: 'muted', 'data-testid': 'preview-redactions' }, icon('shield'), ` ${plural(preview.redactions, 'secret')} redacted`)
        : null,
      renderWarnings(preview),
      tiers,
      verification,
      summary,
      diff,
      actions,
    ),
  ];
}

/** "costs $0.41 once, saves $0.12 per call: pays off after 4 calls", when the model has a price. */
function renderBreakEven(preview: Preview): HTMLElement | null {
  // A preview saved by an earlier version of the panel has no breakEven field.
  const figures = preview.breakEven ?? null;
  if (figures === null || preview.status !== 'compacted') return null;
  const why = `After a compaction the next call writes the kept context to the cache instead of reading it (the one-off cost); every call after reads fewer tokens (the saving). At ${figures.model}'s cache prices.`;
  return el('p', { class: 'preview-break-even', 'data-testid': 'preview-break-even', title: why }, icon('graph-line'), ' Compacting ', figures.sentence);
}

/** `145,710 → 29,800 tokens (−80 %) · target 30,000 met` — the one place the figures appear. */
function headline(preview: Preview): string {
  const figures = `${exactTokens(preview.beforeTokens)} → ${exactTokens(preview.afterTokens)} tokens (−${Math.round(preview.savingsPct)} %)`;
  if (preview.status !== 'compacted') return `${figures} · ${preview.message}`;
  // A missed target says by how much and why, as the engine's message does.
  if (!preview.targetMet && preview.targetMiss) return `${figures} · ${preview.targetMiss}`;
  return `${figures} · target ${exactTokens(preview.targetTokens)} ${preview.targetMet ? 'met' : 'not met'}`;
}

export function renderProgress(progress: { message: string; cancellable: boolean } | null): HTMLElement[] {
  if (!progress) return [];
  const cancel = progress.cancellable ? custom('vscode-button', { secondary: '', icon: 'close', 'data-testid': 'progress-cancel' }, 'Cancel') : null;
  cancel?.addEventListener('click', () => post({ type: 'cancelProgress' }));
  return [
    el(
      'div',
      { class: 'progress', role: 'status', 'aria-live': 'polite', 'data-testid': 'progress' },
      custom('vscode-progress-ring', { 'aria-hidden': 'true' }),
      el('span', {}, progress.message),
      cancel,
    ),
  ];
}
