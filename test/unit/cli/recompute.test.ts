// The same compaction recomputed gives the same figures: the demo session compacted again and again
// (each run archives under a new id, time and random characters, which the summary and stubs cite)
// drifted by a token or two ("33,908 → 33,909 → 33,910" in the panel).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from './support';

describe('compact recomputed', () => {
  const root = mkdtempSync(join(tmpdir(), 'cl-recompute-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('the demo compacted five times: one after size, one saving', async () => {
    cpSync(join(__dirname, '..', '..', '..', 'samples', 'claude-config'), join(root, 'config'), { recursive: true });
    const projects = join(root, 'config', 'projects');
    const project = join(projects, readdirSync(projects)[0] as string);
    const transcript = join(project, readdirSync(project).find((name) => name.endsWith('.jsonl')) as string);
    const seen = new Set<string>();
    for (let k = 0; k < 5; k++) {
      const result = await run(['compact', transcript, '--json', '--archive-dir', join(root, 'archive')], { CONTEXT_LENS_CACHE: join(root, 'cache') });
      assert.equal(result.code, 0, result.err);
      const report = JSON.parse(result.out) as { after: { tokens: number }; metrics: { tokensAfter: number; savedTokens: number } };
      seen.add(`${report.after.tokens} ${report.metrics.tokensAfter} ${report.metrics.savedTokens}`);
    }
    assert.equal(seen.size, 1, [...seen].join(' | '));
  });
});
