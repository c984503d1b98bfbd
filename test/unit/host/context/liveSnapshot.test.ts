import assert from 'node:assert/strict';
import { DEMO_SESSION } from '../../../support/demoSession';
import { describe, it } from 'node:test';
import { HeuristicSummarizer, MemoryArchive, plan } from '../../../../src/engine';
import { runCompaction } from '../../../../src/host/compaction/run';
import { livePlan } from '../../../../src/host/context/liveSnapshot';
import { snapshotOf } from './snapshotOf';
import { engineOptionsOf } from '../../../../src/host/engineOptions';
import { SETTING_DEFAULTS } from '../../../../src/host/settingDefaults';
import { readSessionInfo } from '../../../../src/sessions/claude-code/listing';

const DEMO = DEMO_SESSION;

describe('the live plan', () => {
  it('gives every item the fate Compact… gives it with its default options (the standing focus)', async () => {
    const info = await readSessionInfo(DEMO);
    assert.ok(info.ok);
    // The e2e window: small enough next to the demo that the recent window does not cover it all.
    const { read } = await snapshotOf(info.value, 40_000);
    assert.ok(read.ok);
    const snapshot = read.value;
    const settings = { engine: engineOptionsOf(SETTING_DEFAULTS, SETTING_DEFAULTS['trigger.targetPercent']), compactionFocus: 'the retry decision' };

    const live = livePlan(snapshot, settings);
    const compacted = await runCompaction({
      id: 'p1',
      focus: settings.compactionFocus,
      engine: settings.engine,
      summarizer: { name: 'heuristic', summarizer: new HeuristicSummarizer() },
      context: snapshot.context,
      archive: new MemoryArchive(),
      signal: new AbortController().signal,
    });
    const fates = (items: readonly { id: number; fate: string; reason: string }[]) => items.map(({ id, fate, reason }) => ({ id, fate, reason }));
    assert.deepEqual(fates(live.items), fates(compacted.result.items));
    assert.ok(
      live.items.some((item) => item.fate !== 'preserved'),
      'Compact… changes something in the demo session',
    );
    // What the map used to show: an automatic plan at the target, far above this small session.
    assert.ok(plan(snapshot.context, settings.engine).items.every((item) => item.fate === 'preserved'));
  });
});
