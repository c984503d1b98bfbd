// The item detail pane: the full text of one context item, with its second thoughts (the engine's
// epistemic markers: wait, actually, …) highlighted. Transcript content is hostile (tool output can
// hold <script> or <img onerror>), so the text is only ever set through text nodes; markers are
// <mark> elements built around them.
// A sentence selected in the text can be pinned: it then survives every compaction word for word.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import { PIN_MAX, type ChoiceAction, type ItemDetail } from '../src/protocol/messages';
import { printable } from '../src/protocol/printable';
import { custom, el, icon } from './dom';
import { FATE_ICONS } from './logic/format';
import { secondThoughts } from '../src/protocol/categories';
import { segmentByMarkers } from './logic/markers';

export class DetailPane {
  readonly element = el('section', { class: 'detail', 'aria-labelledby': 'detail-title', hidden: '' });
  /** The item asked for; a detail for another id (a late reply) is ignored. */
  private requested: number | null = null;
  /** What the text shows, and the line above it that says the item's fate. */
  private rendered: { key: string; meta: HTMLElement; heading: HTMLElement } | null = null;

  constructor(
    private readonly onClose: () => void,
    private readonly onChoose: (action: ChoiceAction) => void,
  ) {}

  /** The item the pane shows or waits for; null when closed. */
  get shownId(): number | null {
    return this.element.hidden ? null : this.requested;
  }

  /** Shows a placeholder until the host's itemDetail arrives. */
  request(id: number): void {
    this.requested = id;
    this.element.hidden = false;
    this.element.replaceChildren(this.heading(`Item #${id}`), el('p', { class: 'muted' }, 'Loading…'));
  }

  /** Whether a reply for item `id` is still wanted: asked for, and not closed since (a late reply after a session switch is not). */
  wants(id: number): boolean {
    return this.requested === id;
  }

  show(detail: ItemDetail): boolean {
    if (this.requested !== null && detail.id !== this.requested) return false;
    this.requested = detail.id;
    this.element.hidden = false;
    const heading = this.heading(`Item #${detail.id} · ${detail.label}`);
    const fate = detail.fate ? el('span', { class: `fate-${detail.fate}` }, icon(FATE_ICONS[detail.fate]), ` ${detail.fate}`) : null;
    const meta = el(
      'p',
      { class: 'detail-meta', 'data-testid': 'detail-meta' },
      fate,
      fate && detail.reason ? ' — ' : '',
      detail.reason ?? '',
      detail.markers.length ? el('span', { class: 'muted' }, ` · ${secondThoughts(detail.markers.length)}`) : '',
    );
    // The same item asked for again after a keep or drop changed its fate: only the fate line
    // changes, so a sentence the person is selecting to pin stays selected.
    const key = JSON.stringify([detail.id, detail.text, detail.markers, detail.truncated]);
    if (this.rendered?.key === key && this.element.contains(this.rendered.meta)) {
      this.rendered.heading.replaceWith(heading);
      this.rendered.meta.replaceWith(meta);
      this.rendered = { key, meta, heading };
      return true;
    }
    const text = el('pre', { class: 'detail-text', 'data-testid': 'detail-text', tabindex: '0', 'aria-label': `Text of item #${detail.id}` });
    for (const run of segmentByMarkers(detail.text, detail.markers)) {
      text.appendChild(
        run.marker === null
          ? document.createTextNode(printable(run.text))
          : el(
              'mark',
              { class: 'marker', 'data-testid': 'marker', title: `Second thought: "${run.marker}" (the agent doubted or corrected itself here)` },
              run.text,
            ),
      );
    }
    const pin = custom(
      'vscode-button',
      {
        icon: 'pinned',
        secondary: '',
        'data-testid': 'pin-selection',
        title: 'Pin the text selected above as a constraint: it survives every compaction word for word',
      },
      'Pin selected sentence',
    );
    const pinHint = el('span', { class: 'muted small', 'aria-live': 'polite' }, 'Select a sentence in the text to pin it.');
    pin.addEventListener('click', () => {
      const selection = window.getSelection();
      const inside = selection !== null && selection.rangeCount > 0 && text.contains(selection.getRangeAt(0).commonAncestorContainer);
      const chosen = inside ? selection.toString().replace(/\s+/g, ' ').trim() : '';
      if (chosen === '') {
        pinHint.textContent = 'Nothing selected in this item: select a sentence first.';
        return;
      }
      this.onChoose({ kind: 'pin', text: chosen.slice(0, PIN_MAX) });
      pinHint.textContent = `Pinned: “${chosen.length > 80 ? `${chosen.slice(0, 79)}…` : chosen}”`;
    });
    this.element.replaceChildren(heading, meta, text, el('div', { class: 'detail-actions' }, pin, pinHint));
    this.rendered = { key, meta, heading };
    if (detail.truncated)
      this.element.appendChild(el('p', { class: 'muted small' }, icon('info'), ' Truncated for display; the full item is in the transcript.'));
    return true;
  }

  hide(): void {
    this.requested = null;
    this.rendered = null;
    this.element.hidden = true;
    this.element.replaceChildren();
  }

  private heading(title: string): HTMLElement {
    const close = custom('vscode-button', { icon: 'close', secondary: '', 'aria-label': 'Close item', title: 'Close item' });
    close.addEventListener('click', () => {
      this.hide();
      this.onClose();
    });
    return el('div', { class: 'section-title' }, el('h2', { id: 'detail-title', class: 'keep-case' }, title), close);
  }
}
