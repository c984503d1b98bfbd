// Summaries as Markdown in the panel: markdown-it's output (logic/markdown.ts: no raw HTML, no links
// or images) parsed into a detached fragment, where only an allowlist of plain elements without
// attributes survives, in case a rule ever changes.
import { markdownHtml } from './logic/markdown';

const ALLOWED = new Set([
  'P',
  'UL',
  'OL',
  'LI',
  'STRONG',
  'EM',
  'CODE',
  'PRE',
  'BLOCKQUOTE',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HR',
  'BR',
  'TABLE',
  'THEAD',
  'TBODY',
  'TR',
  'TH',
  'TD',
  'S',
]);

/** A detached fragment: elements off the allowlist are replaced by their text, attributes dropped (an ordered list keeps `start`). */
export function renderMarkdown(text: string): DocumentFragment {
  const template = document.createElement('template');
  template.innerHTML = markdownHtml(text);
  const walker = document.createTreeWalker(template.content, NodeFilter.SHOW_ELEMENT);
  const elements: Element[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) elements.push(node as Element);
  for (const element of elements) {
    if (!ALLOWED.has(element.tagName)) {
      element.replaceWith(document.createTextNode(element.textContent ?? ''));
      continue;
    }
    for (const attribute of [...element.attributes]) if (!(element.tagName === 'OL' && attribute.name === 'start')) element.removeAttribute(attribute.name);
  }
  return template.content;
}
