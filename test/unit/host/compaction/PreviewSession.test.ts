import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FileSystemArchive, StagedArchive } from '../../../../src/archive/fileArchive';
import { HeuristicSummarizer, type Context } from '../../../../src/engine';
import { PreviewSession, type PreviewSessionDeps } from '../../../../src/host/compaction/PreviewSession';
import type { PreviewInputs } from '../../../../src/host/compaction/previewInputs';
import { runCompaction } from '../../../../src/host/compaction/run';
import type { LiveSnapshot } from '../../../../src/host/context/liveSnapshot';
import { adapterOf } from '../../../../src/sessions/agents';
import type { SummarizerSettings } from '../../../../src/host/settings';
import type { Choices, Preview } from '../../../../src/protocol/messages';
import type { LiveContext } from '../../../../src/sessions/types';
import { assistant, big, build, read, user } from '../../engine/support/build';

const CONTENT = 'the retry table: attempt 3 waits 800 ms';
const context = (): Context =>
  build(
    [
      user('Fix the retry.'),
      ...read('t1', '/w/retry.ts', big(CONTENT, 6_000)),
      assistant('Looked at it.'),
      user('go on'),
      ...read('t2', '/w/other.ts', big('v2', 6_000)),
      assistant('Done.'),
      user('and now?'),
      assistant('Done again.'),
    ],
    { windowTokens: 10_000 },
  );

const snapshotOf = (ctx: Context, lastRecord: string): LiveSnapshot => ({
  adapter: adapterOf('claude-code'),
  live: { session: { path: '/s/session.jsonl', agent: 'claude-code', cwd: null }, entries: [{ uuids: [lastRecord] }] } as unknown as LiveContext,
  context: ctx,
  breakdown: [],
  reservedOutputTokens: 0,
});

const HEURISTIC: SummarizerSettings = { provider: 'heuristic', anthropicModel: 'm', anthropicBaseUrl: '', claudeCliPath: '' };
const NO_CHOICES: Choices = { keep: [], drop: [], pins: [] };

/** The flow without VS Code: the live inputs are plain fields the test moves, the engine is real. */
function harness(summarizer: SummarizerSettings = HEURISTIC) {
  const ctx = context();
  const live = { snapshot: snapshotOf(ctx, 'u1'), choices: NO_CHOICES, engine: { preserve: { recentTurns: 1, recentPercent: 0 } }, summarizer };
  const published: (Preview | null)[] = [];
  let computations = 0;
  let ids = 0;
  const deps: PreviewSessionDeps = {
    inputs: (): PreviewInputs => ({ ...live }),
    compute: async (request, inputs) => {
      computations++;
      const archive = new StagedArchive(new FileSystemArchive(join(tmpdir(), 'context-lens-never-written')));
      const outcome = await runCompaction({
        id: `p${++ids}`,
        focus: request.focus,
        engine: inputs.engine,
        summarizer: { name: 'heuristic', summarizer: new HeuristicSummarizer() },
        context: inputs.snapshot.context,
        archive,
        signal: new AbortController().signal,
        choices: inputs.choices,
        summaryOverride: request.summaryOverride,
      });
      return outcome.cancelled ? null : { preview: outcome.preview, result: outcome.result, archive };
    },
    publish: (preview) => published.push(preview),
  };
  const session = new PreviewSession(deps);
  return { ctx, live, session, published, computations: () => computations };
}

/** Lets an automatic recomputation (started without awaiting) finish. */
async function settled(session: PreviewSession): Promise<void> {
  for (let turn = 0; turn < 100 && session.computing; turn++) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal(session.computing, false);
}

const fateOf = (preview: Preview, id: number) => preview.regions.find((region) => region.id === id)?.fate;
/** The item the test keeps: the first read's result, which a compaction of this context drops. */
const resultIdOf = (ctx: Context) => ctx.items.findIndex((item) => item.kind === 'tool_result' && item.text.startsWith(CONTENT));
const written = (text: string) => text.includes(CONTENT);

describe('the preview is Apply', () => {
  it('computes the preview again at once when the person keeps an item after it, and Apply writes that item', async () => {
    const { ctx, live, session, computations } = harness();
    assert.equal(await session.show({ focus: '', summaryOverride: null }), 'shown');
    const id = resultIdOf(ctx);
    const first = session.shown!;
    assert.equal(fateOf(first.preview, id), 'dropped', 'the preview drops the item');

    live.choices = { keep: [id], drop: [], pins: [] };
    session.inputsChanged();
    assert.equal(session.shown!.preview.stale?.refreshing, true, 'out of date while it is computed again');
    assert.deepEqual(session.beginApply(first.preview.id), { ok: false, error: 'the preview is being computed again — apply it once it is shown.' });
    await settled(session);

    const shown = session.shown!;
    assert.equal(computations(), 2);
    assert.notEqual(shown.preview.id, first.preview.id);
    assert.equal(shown.preview.stale, null);
    assert.equal(fateOf(shown.preview, id), 'preserved');
    assert.deepEqual(shown.preview.choices.keep, [id]);
    assert.ok(shown.preview.afterTokens > first.preview.afterTokens, 'the total moved with the keep');
    assert.deepEqual(session.beginApply(first.preview.id), { ok: false, error: null }, "the old preview's button does nothing");
    const grant = session.beginApply(shown.preview.id);
    assert.ok(grant.ok);
    // What Apply writes is the granted result: the kept item is in the context after it.
    assert.ok(
      grant.value.result.after.items.some((item) => written(item.text)),
      'the kept item is in the fork',
    );
    session.endApply({ ...grant.value.preview, applied: { sessionId: 'f', path: '/s/f.jsonl', resumeCommand: 'claude --resume f' } });
    live.choices = NO_CHOICES;
    session.inputsChanged();
    assert.equal(session.shown!.preview.stale, null, 'an applied preview is never marked out of date');
  });

  it("refuses Apply while the choices differ from the preview's when recomputing would call a model, until refreshed", async () => {
    const { ctx, live, session, computations } = harness({ ...HEURISTIC, provider: 'anthropic' });
    await session.show({ focus: 'retry', summaryOverride: null });
    const id = resultIdOf(ctx);
    const before = session.shown!.preview;
    live.choices = { keep: [id], drop: [], pins: [] };
    session.inputsChanged();
    assert.equal(computations(), 1, 'no model call nobody asked for');
    assert.deepEqual(session.shown!.preview.stale, { why: 'your keep/drop/pin choices changed', refreshing: false });
    const refused = session.beginApply(before.id);
    assert.ok(!refused.ok && refused.error?.includes('out of date'), 'Apply refused');

    const refreshed = session.refresh(before.id);
    assert.equal(session.shown!.preview.stale?.refreshing, true, 'the banner says it is being computed');
    assert.equal(await refreshed, 'shown');
    const fresh = session.shown!.preview;
    assert.equal(fresh.focus, 'retry', 'the same focus');
    assert.equal(fateOf(fresh, id), 'preserved');
    assert.ok(session.beginApply(fresh.id).ok);
  });

  it("is fresh again when the choices go back to the preview's (no recomputation)", async () => {
    const { ctx, live, session, computations } = harness({ ...HEURISTIC, provider: 'claude-cli' });
    await session.show({ focus: '', summaryOverride: null });
    live.choices = { keep: [resultIdOf(ctx)], drop: [], pins: [] };
    session.inputsChanged();
    assert.ok(session.shown!.preview.stale);
    live.choices = NO_CHOICES;
    session.inputsChanged();
    assert.equal(session.shown!.preview.stale, null);
    assert.equal(computations(), 1);
    assert.ok(session.beginApply(session.shown!.preview.id).ok);
  });

  it('marks the preview out of date, without computing, when the agent wrote more', async () => {
    const { ctx, live, session, computations } = harness();
    await session.show({ focus: '', summaryOverride: null });
    live.snapshot = snapshotOf(ctx, 'u2');
    session.inputsChanged();
    assert.deepEqual(session.shown!.preview.stale, { why: 'the agent wrote more to the session since this preview', refreshing: false });
    assert.equal(computations(), 1);
    assert.equal(session.beginApply(session.shown!.preview.id).ok, false);
    // A new, equal read of the same records is no change.
    live.snapshot = snapshotOf(ctx, 'u1');
    session.inputsChanged();
    assert.equal(session.shown!.preview.stale, null);
  });

  it("goes when the panel follows another session, applied or not: never next to another session's gauge and map", async () => {
    const { ctx, live, session, published } = harness();
    await session.show({ focus: '', summaryOverride: null });
    const grant = session.beginApply(session.shown!.preview.id);
    assert.ok(grant.ok);
    session.endApply({ ...grant.value.preview, applied: { sessionId: 'f', path: '/s/f.jsonl', resumeCommand: 'claude --resume f' } });
    // After Apply the panel follows the fork.
    live.snapshot = {
      ...snapshotOf(ctx, 'f1'),
      live: { session: { path: '/s/f.jsonl', agent: 'claude-code', cwd: null }, entries: [{ uuids: ['f1'] }] } as unknown as LiveContext,
    };
    session.inputsChanged();
    assert.equal(session.shown, null);
    assert.equal(published.at(-1), null, 'the webviews are told');
    // An unapplied preview goes the same way when the person picks another session.
    live.snapshot = snapshotOf(ctx, 'u1');
    await session.show({ focus: '', summaryOverride: null });
    live.snapshot = {
      ...snapshotOf(ctx, 'f1'),
      live: { session: { path: '/s/other.jsonl', agent: 'claude-code', cwd: null }, entries: [{ uuids: ['f1'] }] } as unknown as LiveContext,
    };
    session.inputsChanged();
    assert.equal(session.shown, null);
  });

  it('checks the inputs again at Apply even when no change was announced', async () => {
    const { live, session } = harness();
    await session.show({ focus: '', summaryOverride: null });
    live.engine = { preserve: { recentTurns: 2, recentPercent: 0 } };
    const refused = session.beginApply(session.shown!.preview.id);
    assert.ok(!refused.ok && refused.error?.includes('a compaction setting changed'));
    await settled(session);
    assert.ok(session.beginApply(session.shown!.preview.id).ok, 'recomputed with the setting, then applicable');
  });

  it("writes and verifies the person's edited summary, and keeps it through a recomputation", async () => {
    const { ctx, live, session } = harness();
    await session.show({ focus: '', summaryOverride: null });
    const generated = session.shown!.preview;
    assert.ok(generated.summaryBody, 'the summary body is offered for editing');
    assert.equal(generated.summaryEdited, false);
    const mine = 'Retry fixed: exponential backoff with jitter, tests pass. password=hunter2';
    assert.equal(await session.editSummary(generated.id, mine), 'shown');
    const edited = session.shown!;
    assert.equal(edited.preview.summaryEdited, true);
    assert.ok(edited.preview.summaryBody?.startsWith('Retry fixed: exponential backoff with jitter, tests pass.'));
    assert.ok(!edited.result.summary?.text.includes('hunter2'), 'a pasted secret is masked');
    assert.ok(
      edited.result.after.items.some((item) => item.text.includes('Retry fixed: exponential backoff')),
      'the edited text is what is written',
    );
    assert.ok(edited.preview.verification, 'and it is verified');

    live.choices = { keep: [], drop: [resultIdOf(ctx) + 1], pins: [] };
    session.inputsChanged();
    await settled(session);
    assert.equal(session.shown!.preview.summaryEdited, true, 'the edit survives a keep or drop');
    assert.equal(await session.editSummary(session.shown!.preview.id, null), 'shown');
    assert.equal(session.shown!.preview.summaryEdited, false, 'back to the generated summary');
  });
});
