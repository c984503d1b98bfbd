// The preview's summary: rendered as Markdown (the raw text, frame and tags included, one click away),
// and editable before Apply. The edited text goes to the host, which computes the preview again with
// it and verifies it; only then can it be applied, so Apply never writes a text the person did not see.
// The draft survives the preview's re-renders (an out-of-date mark, a recomputation) and keeps focus.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import { SUMMARY_EDIT_MAX, type Preview } from '../src/protocol/messages';
import { custom, el, icon } from './dom';
import { renderMarkdown } from './markdown';
import { post } from './vscodeApi';

export class SummaryEditor {
  /** The text being edited; null when not editing. */
  private draft: string | null = null;
  private readonly textarea = el('textarea', {
    class: 'summary-edit',
    'data-testid': 'summary-edit',
    'aria-label': 'Summary text',
    spellcheck: 'true',
    rows: '14',
    maxlength: String(SUMMARY_EDIT_MAX),
  });

  constructor(private readonly rerender: () => void) {
    this.textarea.addEventListener('input', () => (this.draft = this.textarea.value));
  }

  /** An edit is open and not yet used: Apply would write the text before it. */
  get editing(): boolean {
    return this.draft !== null;
  }

  /** A preview went away: nothing is being edited for it. */
  reset(): void {
    this.draft = null;
  }

  render(preview: Preview): HTMLElement {
    if (this.draft !== null && !preview.applied) return this.renderEditing(preview);
    this.draft = null;
    const raw = preview.summary ?? '';
    const view = renderSummary(raw, preview.summaryReadable ?? raw);
    if (preview.applied) return view;
    const edit = custom(
      'vscode-button',
      {
        icon: 'edit',
        secondary: '',
        'data-testid': 'summary-edit-start',
        title: 'Write the summary yourself: your text is what the fork gets, verified like a generated one',
      },
      'Edit summary',
    );
    edit.addEventListener('click', () => {
      this.draft = preview.summaryBody ?? readableBody(preview);
      this.rerender();
      this.textarea.focus();
    });
    const edited = preview.summaryEdited
      ? el('p', { class: 'summary-edited', 'data-testid': 'summary-edited' }, icon('person'), ' Edited by you — verified below.', ' ', revertButton(preview))
      : null;
    return el('div', {}, edited, el('div', { class: 'actions' }, edit), view);
  }

  /** Call around a re-render: a textarea moved in the DOM loses focus and caret. */
  keepFocus(): () => void {
    if (document.activeElement !== this.textarea) return () => undefined;
    const { selectionStart, selectionEnd } = this.textarea;
    return () => {
      this.textarea.focus();
      this.textarea.setSelectionRange(selectionStart, selectionEnd);
    };
  }

  private renderEditing(preview: Preview): HTMLElement {
    if (this.textarea.value !== this.draft) this.textarea.value = this.draft ?? '';
    const use = custom('vscode-button', { icon: 'check', 'data-testid': 'summary-edit-use' }, 'Use this summary');
    const discard = custom('vscode-button', { icon: 'discard', secondary: '', 'data-testid': 'summary-edit-discard' }, 'Discard edits');
    const hint = el('span', { class: 'muted small', 'aria-live': 'polite' }, 'The preview is computed again with your text and verified; Apply waits for it.');
    use.addEventListener('click', () => {
      const text = (this.draft ?? '').trim();
      if (text === '') {
        hint.textContent = 'An empty summary cannot be used: write something, or discard the edits.';
        return;
      }
      this.draft = null;
      post({ type: 'editSummary', previewId: preview.id, text });
      this.rerender();
    });
    discard.addEventListener('click', () => {
      this.draft = null;
      this.rerender();
    });
    return el('div', { class: 'summary-editing' }, this.textarea, el('div', { class: 'actions' }, use, discard, hint));
  }
}

function revertButton(preview: Preview): HTMLElement {
  const button = el(
    'button',
    { class: 'link-button', 'data-testid': 'summary-revert', title: "Compute the preview again with the summarizer's text" },
    'use the generated summary',
  );
  button.addEventListener('click', () => post({ type: 'previewAction', previewId: preview.id, action: 'revertSummary' }));
  return button;
}

/** A preview saved by an earlier panel has no body: the readable text is the closest. */
function readableBody(preview: Preview): string {
  return preview.summaryReadable ?? preview.summary ?? '';
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
