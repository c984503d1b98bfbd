// Tiny DOM helpers. Text is always set through textContent: transcript content is untrusted and
// must never be parsed as HTML. Control and bidi characters in it are shown as `\u001b`-style escapes.
import { printable } from '../src/protocol/printable';

export type Child = Node | string | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, printable(value));
  append(node, children);
  return node;
}

/** Custom elements (vscode-elements) by tag name. */
export function custom(tag: string, attributes: Record<string, string> = {}, ...children: Child[]): HTMLElement {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  append(node, children);
  return node;
}

export function icon(name: string, label?: string): HTMLElement {
  const node = el('span', { class: `codicon codicon-${name}` });
  if (label) {
    node.setAttribute('role', 'img');
    node.setAttribute('aria-label', label);
  } else node.setAttribute('aria-hidden', 'true');
  return node;
}

/** A codicon that turns: something is under way. */
export function spinningIcon(name: string): HTMLElement {
  const node = icon(name);
  node.classList.add('codicon-modifier-spin');
  return node;
}

export function append(node: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(typeof child === 'string' ? document.createTextNode(printable(child)) : child);
  }
}

/**
 * A section rebuilt only when its input changes. States arrive up to 10/s and mostly repeat
 * the same history or empty state; comparing a serialised key is far cheaper than new DOM and
 * keeps focus, hover and open <details> where they are.
 */
export class KeyedSection<T> {
  private key: string | undefined;

  constructor(
    readonly element: HTMLElement,
    private readonly build: (value: T) => Child[],
  ) {}

  update(value: T): void {
    const key = JSON.stringify(value);
    if (key === this.key) return;
    this.key = key;
    this.element.replaceChildren();
    append(this.element, this.build(value));
    this.element.hidden = this.element.childNodes.length === 0;
  }
}
