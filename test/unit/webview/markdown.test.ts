import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { markdownHtml } from '../../../webview/logic/markdown';

describe('summary Markdown', () => {
  it("renders the summary's sections and lists", () => {
    const html = markdownHtml('## Decisions\n\n- stream the input\n- **never** touch prod\n');
    assert.match(html, /<h2>Decisions<\/h2>/);
    assert.match(html, /<li><strong>never<\/strong> touch prod<\/li>/);
  });

  it('never passes raw HTML through, and links and images stay text', () => {
    const html = markdownHtml(
      '<script>alert(1)</script>\n\n<img src=x onerror=alert(2)> [click](javascript:alert(3)) ![x](http://evil/x.png) <http://evil/> http://evil/',
    );
    assert.doesNotMatch(html, /<script|<img|<a /);
    assert.match(html, /&lt;script&gt;/);
    assert.match(html, /\[click\]\(javascript:alert\(3\)\)/);
  });
});
