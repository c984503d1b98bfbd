// Summaries as Markdown, rendered with markdown-it and sanitised: raw HTML is never parsed (html off,
// so `<script>` in a summary shows as text), links and images are not recognised at all (a summary
// quotes tool output; nothing in it should be clickable or fetch anything), and after rendering
// only an allowlist of plain elements without attributes survives, in case a rule ever changes.
import MarkdownIt from 'markdown-it';

const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false }).disable(['link', 'image', 'autolink', 'html_inline', 'html_block', 'reference']);

const ALLOWED = new Set(['P', 'UL', 'OL', 'LI', 'STRONG', 'EM', 'CODE', 'PRE', 'BLOCKQUOTE', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HR', 'BR', 'TABLE', 'THEAD', 'TBODY', 'TR', 'TH', 'TD', 'S']);

/** markdown-it's HTML for `text`: raw HTML escaped, links and images left as text. */
export function markdownHtml(text: string): string {
  return markdown.render(text);
}

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
