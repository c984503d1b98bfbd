// The compaction preview (Compact… / Preview): what the run would save, how it was verified, the
// summary and a side-by-side diff, with Apply / Open in Diff Editor / Cancel, and says so when the
// summarizer fell back or the result may still overflow. Once applied it says which fork was written
// and how to resume it. Also the progress of a running compaction.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import type { Preview, VerificationView, WebviewMessage } from '../src/protocol/messages';
import { TIER_NAMES } from '../src/protocol/categories';
import { custom, el, icon } from './dom';
import { renderDiffBlock } from './diffView';
import type { Disclosures } from './disclosure';
import { exactTokens, plural } from './logic/format';
import { renderMarkdown } from './markdown';
import { post } from './vscodeApi';

type PreviewAction = Extract<WebviewMessage, { type: 'previewAction' }>['action'];

function actionButton(preview: Preview, action: PreviewAction, label: string, iconName: string, testId: string, secondary: boolean): HTMLElement {
  const button = custom('vscode-button', { icon: iconName, 'data-testid': testId, ...(secondary ? { secondary: '' } : {}) }, label);
  button.addEventListener('click', () => post({ type: 'previewAction', previewId: preview.id, action }));
  return button;
}

/** Verification as words with an icon each, shared with the history entries. */
export function renderVerification(verification: VerificationView): HTMLElement {
  const kept = verification.constraintsKept === verification.constraintsTotal;
  const items: HTMLElement[] = [
    el('li', {}, icon(kept ? 'pass' : 'warning'), ` constraints kept ${verification.constraintsKept}/${verification.constraintsTotal}`),
    el(
      'li',
      { title: 'Open loops: questions, TODOs and next steps still pending in the conversation. After a compaction the summary lists them again, so the count may grow; it should not shrink.' },
      icon('issues'),
      ` open loops (pending questions and next steps) ${verification.openLoopsBefore} before → ${verification.openLoopsAfter} after`,
      verification.openLoopsAfter < verification.openLoopsBefore ? el('span', { class: 'muted' }, ' — some may be lost') : el('span', { class: 'muted' }, ' — none lost'),
    ),
  ];
  if (verification.reinjected.length) items.push(el('li', {}, icon('debug-restart'), ` re-injected: `, el('ul', {}, ...verification.reinjected.map((text) => el('li', {}, text)))));
  if (verification.filesLost.length) items.push(el('li', {}, icon('warning'), ` files lost: `, el('ul', {}, ...verification.filesLost.map((file) => el('li', { class: 'mono' }, file)))));
  return el('ul', { class: `verification ${verification.ok ? 'verified' : 'unverified'}`, 'aria-label': verification.ok ? 'Verification passed' : 'Verification found problems' }, el('li', { class: 'verdict' }, icon(verification.ok ? 'verified' : 'error'), verification.ok ? ' verified' : ' not verified'), ...items);
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
    el('div', { class: 'actions' }, actionButton(preview, 'resumeInTerminal', 'Resume in Terminal', 'terminal', 'preview-resume', false), actionButton(preview, 'copyResumeCommand', 'Copy resume command', 'copy', 'preview-copy', true)),
  );
}

export function renderPreview(preview: Preview | null, disclosures: Disclosures): HTMLElement[] {
  if (!preview) return [];
  const verification = preview.verification ? renderVerification(preview.verification) : el('p', { class: 'muted' }, 'Not verified.');
  // Only the steps that did something: "−0 tokens" rows say nothing.
  const acted = preview.tiers.filter((tier) => tier.items > 0);
  const tiers = acted.length
    ? el('ul', { class: 'tiers', 'data-testid': 'preview-tiers' }, ...acted.map((tier) => el('li', {}, el('strong', {}, TIER_NAMES[tier.tier] ?? tier.tier), `: ${plural(tier.items, 'item')}, −${exactTokens(Math.max(tier.tokensSaved, 0))} tokens`, tier.note ? el('span', { class: 'muted' }, ` (${tier.note})`) : '')))
    : null;
  const focusKept = preview.regions.filter((region) => region.protection === 'focus').map((region) => `#${region.id}`);
  const focus = el(
    'p',
    { 'data-testid': 'preview-focus' },
    'Focus: ',
    preview.focus ? el('q', {}, preview.focus) : el('span', { class: 'muted' }, 'none'),
    preview.focus ? el('span', { class: 'muted' }, focusKept.length ? ` · kept ${focusKept.slice(0, 12).join(', ')}${focusKept.length > 12 ? ` and ${focusKept.length - 12} more` : ''} verbatim` : ' · matched nothing the ladder would have touched') : null,
  );
  const summary = preview.summary ? disclosures.details('preview-summary', ['Summary'], [renderSummary(preview.summary, preview.summaryReadable ?? preview.summary)], true) : null;
  const diff = disclosures.details('preview-diff', [`Changes (${plural(preview.diff.length, 'item')})`], preview.diff.length ? preview.diff.map(renderDiffBlock) : [el('p', { class: 'muted' }, 'Nothing changes.')], true);
  const actions = preview.applied
    ? renderApplied(preview)
    : el(
        'div',
        { class: 'actions' },
        preview.status === 'compacted' ? actionButton(preview, 'apply', 'Apply', 'check', 'preview-apply', false) : null,
        actionButton(preview, 'openDiff', 'Open in Diff Editor', 'diff', 'preview-open-diff', true),
        actionButton(preview, 'cancel', 'Cancel', 'close', 'preview-cancel', true),
      );
  return [
    el(
      'section',
      { class: 'preview', 'data-testid': 'preview', 'aria-labelledby': 'preview-title' },
      el('div', { class: 'section-title' }, el('h2', { id: 'preview-title' }, 'Compaction preview'), el('span', { class: 'muted' }, `summarizer: ${preview.summarizer}`)),
      el('p', { class: 'preview-headline', 'data-testid': 'preview-headline' }, headline(preview)),
      focus,
      preview.redactions > 0 ? el('p', { class: 'muted', 'data-testid': 'preview-redactions' }, icon('shield'), ` ${plural(preview.redactions, 'secret')} redacted`) : null,
      renderWarnings(preview),
      tiers,
      verification,
      summary,
      diff,
      actions,
    ),
  ];
}

/** `145,710 → 29,800 tokens (−80 %) · target 30,000 met` — the one place the figures appear. */
function headline(preview: Preview): string {
  const figures = `${exactTokens(preview.beforeTokens)} → ${exactTokens(preview.afterTokens)} tokens (−${Math.round(preview.savingsPct)} %)`;
  if (preview.status !== 'compacted') return `${figures} · ${preview.message}`;
  return `${figures} · target ${exactTokens(preview.targetTokens)} ${preview.targetMet ? 'met' : 'not met'}`;
}

/** The summary rendered as Markdown, the raw text (frame and tags, exactly as inserted) one click away. */
function renderSummary(raw: string, readable: string): HTMLElement {
  const rendered = el('div', { class: 'summary-markdown', 'data-testid': 'summary-markdown' });
  rendered.appendChild(renderMarkdown(readable));
  const rawText = el('pre', { class: 'summary-text', 'data-testid': 'summary-raw', hidden: '' }, raw);
  const toggle = el('button', { class: 'link-button', 'data-testid': 'summary-toggle', 'aria-pressed': 'false' }, 'Show raw text');
  toggle.addEventListener('click', () => {
    const showRaw = rawText.hidden;
    rawText.hidden = !showRaw;
    rendered.hidden = showRaw;
    toggle.textContent = showRaw ? 'Show rendered' : 'Show raw text';
    toggle.setAttribute('aria-pressed', String(showRaw));
  });
  return el('div', {}, toggle, rendered, rawText);
}

export function renderProgress(progress: { message: string; cancellable: boolean } | null): HTMLElement[] {
  if (!progress) return [];
  const cancel = progress.cancellable ? custom('vscode-button', { secondary: '', icon: 'close', 'data-testid': 'progress-cancel' }, 'Cancel') : null;
  cancel?.addEventListener('click', () => post({ type: 'cancelProgress' }));
  return [el('div', { class: 'progress', role: 'status', 'aria-live': 'polite', 'data-testid': 'progress' }, custom('vscode-progress-ring', { 'aria-hidden': 'true' }), el('span', {}, progress.message), cancel)];
}
