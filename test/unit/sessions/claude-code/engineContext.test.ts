import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sumTokens } from '../../../../src/engine';
import { engineContextOf } from '../../../../src/sessions/claude-code/engineContext';
import { readFill, readLiveContext } from '../../../../src/sessions/claude-code';

const ROOT = join(__dirname, '..', '..', '..', 'fixtures', 'claude-code');

function transcripts(): string[] {
  return readdirSync(ROOT, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((scenario) => {
      const projects = join(ROOT, scenario.name, 'projects');
      return readdirSync(projects).flatMap((project) => readdirSync(join(projects, project)).filter((file) => file.endsWith('.jsonl')).map((file) => join(projects, project, file)));
    });
}

describe('engineContextOf', () => {
  for (const path of transcripts()) {
    it(`maps ${path.split('/').at(-4)} with the gauge's exact total and a sourceRef on every message item`, async () => {
      const live = await readLiveContext(path);
      assert.ok(live.ok);
      const fill = await readFill(path);
      assert.ok(fill.ok);
      const context = engineContextOf(live.value);
      assert.equal(context.usedTokens, fill.value.fill.usedTokens);
      assert.equal(sumTokens(context.items), fill.value.fill.usedTokens);
      assert.equal(context.usedSource, 'usage');
      assert.equal(context.windowTokens, live.value.fill.windowTokens);
      for (const item of context.items) {
        if (item.messageIndex < 0) continue;
        assert.deepEqual(item.sourceRef, live.value.entries[item.messageIndex]?.uuids, `item #${item.id}`);
      }
      const summaries = live.value.entries.filter((entry) => entry.kind === 'compact-summary').map((entry) => entry.messageIndex);
      for (const index of summaries) assert.ok(context.items.some((item) => item.messageIndex === index && item.kind === 'summary'));
    });
  }
});
