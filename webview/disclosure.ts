// Expandable sections (<details>) whose open/closed state survives re-renders and hide/show:
// sections are rebuilt when their data changes, and a summary the user opened must stay open.
import { append, el, type Child } from './dom';

export class Disclosures {
  private readonly open: Set<string>;

  constructor(
    initiallyOpen: readonly string[],
    private readonly persist: (open: string[]) => void,
  ) {
    this.open = new Set(initiallyOpen);
  }

  /** A <details> keyed by `key`; `openByDefault` applies until the user toggles it once. */
  details(key: string, summary: Child[], content: Child[], openByDefault = false): HTMLDetailsElement {
    const closedKey = `!${key}`;
    const details = el('details', { class: 'disclosure' });
    details.open = this.open.has(key) || (openByDefault && !this.open.has(closedKey));
    const head = el('summary', {});
    append(head, summary);
    details.appendChild(head);
    append(details, content);
    details.addEventListener('toggle', () => {
      this.open.delete(details.open ? closedKey : key);
      this.open.add(details.open ? key : closedKey);
      this.persist([...this.open]);
    });
    return details;
  }
}
