import assert from 'node:assert/strict';
import { DEMO_SESSION } from '../../../support/demoSession';
import { describe, it } from 'node:test';
import { HeuristicSummarizer, MemoryArchive } from '../../../../src/engine';
import { runCompaction } from '../../../../src/host/compaction/run';
import { applyChoice, ChoiceStore, NO_CHOICES, withChoices } from '../../../../src/host/context/choices';
import { planViewOf } from '../../../../src/host/context/derive';
import { livePlan } from '../../../../src/host/context/liveSnapshot';
import { snapshotOf } from './snapshotOf';
import { engineOptionsOf } from '../../../../src/host/engineOptions';
import { SETTING_DEFAULTS } from '../../../../src/host/settingDefaults';
import { parseWebviewMessage } from '../../../../src/protocol/messages';
import { readSessionInfo } from '../../../../src/sessions/claude-code/listing';

const DEMO = DEMO_SESSION;

describe("the person's choices", () => {
  it('keep and drop exclude each other on an item, the newest wins; undo and clear all', () => {
    let choices = applyChoice(NO_CHOICES, { kind: 'keep', id: 7 });
    choices = applyChoice(choices, { kind: 'keep', id: 3 });
    assert.deepEqual(choices.keep, [3, 7]);
    choices = applyChoice(choices, { kind: 'drop', id: 7 });
    assert.deepEqual([choices.keep, choices.drop], [[3], [7]]);
    choices = applyChoice(choices, { kind: 'undo', id: 7 });
    assert.deepEqual(choices.drop, []);
    choices = applyChoice(applyChoice(choices, { kind: 'pin', text: '  never   touch prod ' }), { kind: 'pin', text: 'never touch prod' });
    assert.deepEqual(choices.pins, ['never touch prod']);
    assert.deepEqual(applyChoice(choices, { kind: 'unpin', text: 'never touch prod' }).pins, []);
    assert.deepEqual(applyChoice(choices, { kind: 'clearAll' }), NO_CHOICES);
  });

  it("reach the engine as ids and as pinned constraints beside the settings' own", () => {
    const engine = withChoices({ preserve: { pinned: ['a'] } }, { keep: [1], drop: [2], pins: ['b', 'a'] });
    assert.deepEqual(engine.choices, { keep: [1], drop: [2] });
    assert.deepEqual(engine.preserve?.pinned, ['a', 'b']);
    const untouched = { preserve: { pinned: ['a'] } };
    assert.equal(withChoices(untouched, NO_CHOICES), untouched);
  });

  it('are kept per session in the workspace state, and what is stored there is validated', async () => {
    const map = new Map<string, unknown>();
    const storage = { get: <T>(key: string) => map.get(key) as T | undefined, update: async (key: string, value: unknown) => void map.set(key, value) };
    const store = new ChoiceStore(storage);
    await store.set('/a.jsonl', { keep: [1], drop: [], pins: [] });
    assert.deepEqual(store.get('/a.jsonl').keep, [1]);
    assert.deepEqual(store.get('/b.jsonl'), NO_CHOICES);
    map.set([...map.keys()][0] ?? '', { keep: ['x'], drop: 'nope' });
    assert.deepEqual(store.get('/a.jsonl'), NO_CHOICES);
    await store.set('/a.jsonl', NO_CHOICES);
    assert.equal([...map.values()][0], undefined, 'no choices, nothing stored');
  });

  it('only well-formed choice messages get through from the webview', () => {
    assert.ok(parseWebviewMessage({ type: 'choice', action: { kind: 'drop', id: 4 } }).ok);
    assert.ok(!parseWebviewMessage({ type: 'choice', action: { kind: 'drop', id: -1 } }).ok);
    assert.ok(!parseWebviewMessage({ type: 'choice', action: { kind: 'pin', text: '   ' } }).ok);
    assert.ok(!parseWebviewMessage({ type: 'choice', action: { kind: 'pin', text: 'x'.repeat(5_000) } }).ok);
  });

  it('the live plan, the map and Compact… all follow them', async () => {
    const info = await readSessionInfo(DEMO);
    assert.ok(info.ok);
    const { read } = await snapshotOf(info.value, 0);
    assert.ok(read.ok);
    const snapshot = read.value;
    const settings = { engine: engineOptionsOf(SETTING_DEFAULTS, SETTING_DEFAULTS['trigger.targetPercent']), compactionFocus: '' };
    const result = snapshot.context.items.find((item) => item.kind === 'tool_result');
    const user = snapshot.context.items.find((item) => item.kind === 'user');
    assert.ok(result && user);
    const choices = { keep: [user.id], drop: [result.id], pins: ['Keep the retry budget at 3.'] };

    const live = livePlan(snapshot, settings, choices);
    const view = planViewOf(snapshot.context, live, 1, choices);
    assert.deepEqual(view.choices, choices);
    const region = (id: number) => view.regions.find((entry) => entry.id === id);
    assert.equal(region(result.id)?.fate, 'dropped');
    assert.equal(region(result.id)?.reason, 'your choice (drop)');
    assert.equal(region(user.id)?.reason, 'your choice (keep)');

    const compacted = await runCompaction({
      id: 'p1',
      focus: '',
      engine: settings.engine,
      summarizer: { name: 'heuristic', summarizer: new HeuristicSummarizer() },
      context: snapshot.context,
      archive: new MemoryArchive(),
      signal: new AbortController().signal,
      choices,
    });
    assert.ok(!compacted.cancelled);
    const fates = (items: readonly { id: number; fate: string; reason: string }[]) => items.map(({ id, fate, reason }) => ({ id, fate, reason }));
    assert.deepEqual(fates(live.items), fates(compacted.result.items));
    assert.ok(
      compacted.result.conversation.messages.some((message) => JSON.stringify(message).includes('Keep the retry budget at 3.')),
      'the pinned sentence is in what the model sees next',
    );
  });
});
