// `compact` without --json: the person sees what the focus kept (each item with the focus words it
// holds) and the summary itself (its head, and where the whole one is), not only their counts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { SUMMARY_HEAD_LINES } from '../../../src/cli/compactText';
import { run } from './support';
import { tempDir } from '../../support/tempDir';

/** The bundled demo session (samples/), copied: a long session with a retry decision in it. */
const DEMO_ID = 'c6b61ed8-d74f-49a3-9726-211b52f81b9b';

interface Report {
  focusKept: number[];
  regions: { id: number; kind: string }[];
  summary: { text: string } | null;
}

describe('compact, as text', () => {
  const configDir = join(tempDir('cl-cli-demo-'), 'claude');
  cpSync(join(__dirname, '..', '..', '..', 'samples', 'claude-config'), configDir, { recursive: true });
  const argv = ['compact', DEMO_ID, '--config-dir', configDir, '--focus', 'keep the retry decision'];

  it('lists the items the focus kept, with the focus words each holds', async () => {
    const json = JSON.parse((await run([...argv, '--json'])).out) as Report;
    assert.ok(json.focusKept.length > 0, 'the demo has a retry decision to keep');
    const text = await run(argv);
    assert.equal(text.code, 0, text.err);
    assert.match(text.out, new RegExp(`Kept verbatim for the focus "keep the retry decision": ${json.focusKept.length} items?, [\\d,]+ tokens`));
    for (const id of json.focusKept) assert.match(text.out, new RegExp(`\\n +#${id} +\\S+ +[\\d,]+ +(retry|decision)(, (retry|decision))? +"`));
  });

  it('shows the summary: its first lines as written, and where the whole one is', async () => {
    const json = JSON.parse((await run([...argv, '--json'])).out) as Report;
    const lines = (json.summary?.text ?? '').trimEnd().split('\n');
    const text = (await run(argv)).out;
    const shown = text.split('\n').filter((line) => line.startsWith('  │'));
    const head = shown.filter((line) => !line.startsWith('  │ … '));
    assert.equal(head.length, Math.min(lines.length, SUMMARY_HEAD_LINES));
    // Each shown line is the summary's own (long ones cut with an ellipsis); each run names its own archive entry.
    const same = (line: string): string => line.replace(/archive="[^"]*"/, 'archive=""');
    head.forEach((line, index) => assert.ok(same(lines[index] ?? '').startsWith(same(line.slice('  │ '.length).replace(/…$/, '').trimEnd())), line));
    if (lines.length > SUMMARY_HEAD_LINES)
      assert.match(text, new RegExp(`│ … ${lines.length - SUMMARY_HEAD_LINES} more lines: the whole summary is in --json \\(\\.summary\\.text\\)`));
  });

  it('says so when the focus kept nothing the ladder would have touched', async () => {
    const text = await run(['compact', DEMO_ID, '--config-dir', configDir, '--focus', 'zebra quantum']);
    assert.match(text.out, /Focus "zebra quantum": matched nothing the ladder would have touched/);
  });
});
