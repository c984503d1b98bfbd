// The summary's Markdown as HTML, DOM-free (unit-tested under node). Raw HTML is never parsed (html
// off, so `<script>` in a summary shows as text), and links and images are not recognised at all: a
// summary quotes tool output, and nothing in it should be clickable or fetch anything.
import MarkdownIt from 'markdown-it';

const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false }).disable([
  'link',
  'image',
  'autolink',
  'html_inline',
  'html_block',
  'reference',
]);

/** markdown-it's HTML for `text`: raw HTML escaped, links and images left as text. */
export function markdownHtml(text: string): string {
  return markdown.render(text);
}
