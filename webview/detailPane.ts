// The item detail pane: the full text of one context item, with its epistemic markers
// highlighted. Transcript content is hostile (tool output can hold <script> or <img onerror>),
// so the text is only ever set through text nodes; markers are <mark> elements built around them.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import type { ItemDetail } from '../src/protocol/messages';
import { custom, el, icon } from './dom';
import { FATE_ICONS, plural } from './logic/format';
import { segmentByMarkers } from './logic/markers';

export class DetailPane {
  readonly element = el('section', { class: 'detail', 'aria-labelledby': 'detail-title', hidden: '' });
  /** The item asked for; a detail for another id (a late reply) is ignored. */
  private requested: number | null = null;

  constructor(private readonly onClose: () => void) {}

  /** Shows a placeholder until the host's itemDetail arrives. */
  request(id: number): void {
    this.requested = id;
    this.element.hidden = false;
    this.element.replaceChildren(this.heading(`Item #${id}`), el('p', { class: 'muted' }, 'Loading…'));
  }

  show(detail: ItemDetail): boolean {
    if (this.requested !== null && detail.id !== this.requested) return false;
    this.requested = detail.id;
    this.element.hidden = false;
    const text = el('pre', { class: 'detail-text', 'data-testid': 'detail-text', tabindex: '0', 'aria-label': `Text of item #${detail.id}` });
    for (const run of segmentByMarkers(detail.text, detail.markers)) {
      text.appendChild(run.marker === null ? document.createTextNode(run.text) : el('mark', { class: 'marker', 'data-testid': 'marker', title: `Epistemic marker: "${run.marker}"` }, run.text));
    }
    const fate = detail.fate ? el('span', { class: `fate-${detail.fate}` }, icon(FATE_ICONS[detail.fate]), ` ${detail.fate}`) : null;
    this.element.replaceChildren(
      this.heading(`Item #${detail.id} · ${detail.label}`),
      el('p', { class: 'detail-meta' }, fate, fate && detail.reason ? ' — ' : '', detail.reason ?? '', detail.markers.length ? el('span', { class: 'muted' }, ` · ${plural(detail.markers.length, 'epistemic marker')}`) : ''),
      text,
    );
    if (detail.truncated) this.element.appendChild(el('p', { class: 'muted small' }, icon('info'), ' Truncated for display; the full item is in the transcript.'));
    return true;
  }

  hide(): void {
    this.requested = null;
    this.element.hidden = true;
    this.element.replaceChildren();
  }

  private heading(title: string): HTMLElement {
    const close = custom('vscode-button', { icon: 'close', secondary: '', 'aria-label': 'Close item', title: 'Close item' });
    close.addEventListener('click', () => {
      this.hide();
      this.onClose();
    });
    return el('div', { class: 'section-title' }, el('h2', { id: 'detail-title' }, title), close);
  }
}
