import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { BEFORE_AGENT_LEAD_MS, hookActivityOf, parseHookEvents, readHookEvents, SESSION_START_WINDOW_MS } from '../../../src/host/history/hookEvents';
import { HOOK_TEXT_MAX, hookActivitySchema } from '../../../src/protocol/messages';
import type { CompactionEvent } from '../../../src/sessions/types';
import { tempDir } from '../../support/tempDir';

const T1 = Date.parse('2025-05-01T10:00:00Z');
const T2 = Date.parse('2025-05-01T11:00:00Z');
const iso = (ms: number): string => new Date(ms).toISOString();
const boundary = (uuid: string, at: number | null): CompactionEvent => ({
  uuid,
  by: 'agent',
  timestamp: at === null ? null : iso(at),
  trigger: 'auto',
  preTokens: 167_000,
  postTokens: 31_000,
  focus: null,
  summary: null,
});

/** A line as `ctxlens hook` writes it. */
function line(fields: Record<string, unknown>): string {
  return `${JSON.stringify({ sessionId: 's1', trigger: null, source: null, focus: null, ...fields })}\n`;
}
const pre = (at: number, fields: Record<string, unknown> = {}): string =>
  line({ time: iso(at), hook: 'pre-compact', trigger: 'auto', constraints: 2, openLoops: 1, workspaceFocus: null, printed: true, ...fields });
/** Gemini CLI's hook: runs on every turn, prints on the turns that need the block (`trigger` says why). */
const beforeAgent = (at: number, fields: Record<string, unknown> = {}): string =>
  line({ time: iso(at), hook: 'before-agent', agent: 'gemini', constraints: 3, openLoops: 2, printed: true, ...fields });
const start = (at: number, fields: Record<string, unknown> = {}): string =>
  line({ time: iso(at), hook: 'session-start', source: 'compact', constraints: 2, openLoops: 1, workspaceFocus: null, printed: true, ...fields });

function activity(text: string, compactions: CompactionEvent[]) {
  return hookActivityOf('s1', compactions, parseHookEvents(text));
}

describe('hook events: parsing', () => {
  it('keeps well-formed runs and skips torn, invalid and unmatchable lines', () => {
    const text = [
      pre(T1),
      'not json\n',
      '[1,2]\n',
      'null\n',
      line({ time: 'yesterday', hook: 'pre-compact' }),
      line({ time: iso(T1), hook: 'post-compact' }),
      line({ time: iso(T1), hook: 'pre-compact', sessionId: 42 }),
      start(T1 + 1000, { extra: { nested: true }, constraints: '2', printed: 'yes' }),
      pre(T2).slice(0, 30),
    ].join('');
    const events = parseHookEvents(text);
    assert.deepEqual(
      events.map((event) => [event.hook, event.timeMs]),
      [
        ['pre-compact', T1],
        ['session-start', T1 + 1000],
      ],
    );
    assert.equal(events[0]?.constraints, 2);
    // Wrong types read as "nothing": no count, not printed.
    assert.deepEqual([events[1]?.constraints, events[1]?.printed], [0, false]);
  });

  it('keeps hostile strings as plain text, clipped to what the protocol accepts', () => {
    const hostile = pre(T1, { error: `<img src=x onerror=alert(1)>${'x'.repeat(10_000)}`, workspaceFocus: '<script>alert(1)</script>' });
    const [event] = parseHookEvents(hostile.replace('{', '{"__proto__":{"polluted":true},'));
    assert.equal(event?.workspaceFocus, '<script>alert(1)</script>');
    assert.equal(event?.error?.length, HOOK_TEXT_MAX);
    assert.ok(event?.error?.startsWith('<img src=x onerror=alert(1)>') && event.error.endsWith('…'));
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('never throws, and whatever it keeps fits the protocol once matched', () => {
    const field = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.string({ minLength: HOOK_TEXT_MAX, maxLength: HOOK_TEXT_MAX + 50 }));
    const event = fc.record(
      {
        time: fc.oneof(fc.constant(iso(T1)), fc.constant(iso(T1 + 60_000)), fc.string()),
        hook: fc.constantFrom('pre-compact', 'session-start', 'other'),
        sessionId: fc.constantFrom('s1', ''),
        source: fc.constantFrom('compact', 'startup'),
        constraints: field,
        openLoops: field,
        workspaceFocus: field,
        printed: field,
        error: field,
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            event.map((fields) => JSON.stringify(fields)),
            fc.string(),
          ),
        ),
        (lines) => {
          for (const value of activity(lines.join('\n'), [boundary('b1', T1)]).values()) assert.equal(hookActivitySchema.safeParse(value).success, true);
        },
      ),
    );
  });
});

describe('hook events: reading the tail', () => {
  const folder = tempDir('cl-hook-events-');

  it('reads a missing file as no events', async () => {
    assert.deepEqual(await readHookEvents(join(folder, 'missing.jsonl')), []);
  });

  it('reads only the last bytes, dropping the line they start inside', async () => {
    const path = join(folder, 'events.jsonl');
    const cut = pre(T1, { workspaceFocus: 'cut' });
    const last = pre(T2, { workspaceFocus: 'the retry rework' });
    // The tail starts right where a valid-looking event begins, or inside a two-byte character:
    // either way the line began before the tail, so it is not taken.
    writeFileSync(path, `é${cut}${last}`);
    for (const extra of [0, 1]) {
      const events = await readHookEvents(path, Buffer.byteLength(cut + last) + extra);
      assert.deepEqual(
        events.map((event) => event.workspaceFocus),
        ['the retry rework'],
      );
    }
    assert.deepEqual(await readHookEvents(path, 10), []);
    writeFileSync(path, cut + last);
    assert.equal((await readHookEvents(path)).length, 2);
  });
});

describe('hook events: matching to the agent compactions', () => {
  it('takes the newest pre-compact run of the session before the boundary and the first compact session-start after it', () => {
    const text = [
      pre(T1 - 60_000, { constraints: 9 }),
      pre(T1 - 2_000, { workspaceFocus: 'the retry rework' }),
      pre(T1 - 1_000, { sessionId: 'other', constraints: 7 }),
      start(T1 + 1_000, { source: 'startup', printed: false }),
      start(T1 + 3_000),
      start(T1 + 4_000, { printed: false }),
    ].join('');
    assert.deepEqual(activity(text, [boundary('b1', T1)]).get('b1'), {
      preCompact: { constraints: 2, openLoops: 1, workspaceFocus: 'the retry rework', error: null },
      sessionStart: { printed: true, error: null, constraints: 2, openLoops: 1 },
    });
  });

  it('allows the clock tolerance after the boundary, and no more', () => {
    assert.ok(activity(pre(T1 + 4_000), [boundary('b1', T1)]).get('b1')?.preCompact);
    assert.equal(activity(pre(T1 + 6_000), [boundary('b1', T1)]).has('b1'), false);
  });

  it('does not give an earlier compaction’s runs to a later one', () => {
    const matched = activity(pre(T1 - 1_000) + start(T1 + 2_000), [boundary('b2', T2), boundary('b1', T1)]);
    assert.ok(matched.get('b1')?.preCompact && matched.get('b1')?.sessionStart);
    assert.equal(matched.has('b2'), false);
  });

  it('looks for the session-start run only within a few minutes of the boundary', () => {
    assert.equal(activity(start(T1 + SESSION_START_WINDOW_MS + 1), [boundary('b1', T1)]).has('b1'), false);
    assert.deepEqual(activity(start(T1 + 30_000), [boundary('b1', T1)]).get('b1'), {
      preCompact: null,
      sessionStart: { printed: true, error: null, constraints: 2, openLoops: 1 },
    });
  });

  it('reports failures and skips boundaries without a time', () => {
    const matched = activity(pre(T1, { error: 'Unexpected token } in JSON', constraints: undefined, openLoops: undefined, printed: undefined }), [
      boundary('b1', T1),
      boundary('b0', null),
    ]);
    assert.deepEqual(matched.get('b1')?.preCompact, { constraints: 0, openLoops: 0, workspaceFocus: null, error: 'Unexpected token } in JSON' });
    assert.equal(matched.has('b0'), false);
  });

  // The other agents' hooks, as `ctxlens hook --agent X` logs them (test/integration/connect*.test.ts runs them for real).
  it("Codex's session-start alone (no way into its summariser): the block put back, with its counts", () => {
    const text = start(T1 + 20_000, { agent: 'codex', constraints: 4, openLoops: 0 });
    assert.deepEqual(activity(text, [boundary('b1', T1)]).get('b1'), {
      preCompact: null,
      sessionStart: { printed: true, error: null, constraints: 4, openLoops: 0 },
    });
  });

  it("Gemini CLI's before-agent: the run that printed, shortly before the compression it triggered or after a /compress", () => {
    // The turn at the compression point: the hook fires, then Gemini summarises (a model call), then records the boundary.
    const due = beforeAgent(T1 - 40_000, { trigger: 'compression due' });
    const quiet = beforeAgent(T1 - 90_000, { printed: false, constraints: 0, openLoops: 0 });
    assert.deepEqual(activity(quiet + due, [boundary('b1', T1)]).get('b1'), {
      preCompact: null,
      sessionStart: { printed: true, error: null, constraints: 3, openLoops: 2 },
    });
    // A /compress between turns: the next turn's run puts the block back.
    assert.equal(
      activity(beforeAgent(T1 + 60_000, { trigger: 'first turn after a compression' }), [boundary('b1', T1)]).get('b1')?.sessionStart?.printed,
      true,
    );
    // Turns that printed nothing say nothing, and a run long before the boundary is another turn's.
    assert.equal(activity(beforeAgent(T1 + 10_000, { printed: false }), [boundary('b1', T1)]).has('b1'), false);
    assert.equal(activity(beforeAgent(T1 - BEFORE_AGENT_LEAD_MS - 1_000), [boundary('b1', T1)]).has('b1'), false);
    // Nor does the lead reach back past the previous boundary.
    const previous = T1 - 30_000;
    const matched = activity(beforeAgent(previous + 1_000), [boundary('b0', previous), boundary('b1', T1)]);
    assert.ok(matched.has('b0'));
    assert.equal(matched.has('b1'), false);
  });

  it("OpenCode's plugin: the session-start that printed wins over the one asked during the compaction (nothing recorded yet)", () => {
    const text = [
      pre(T1 - 3_000, { agent: 'opencode' }),
      start(T1 - 1_000, { agent: 'opencode', printed: false, trigger: 'no compaction yet' }),
      start(T1 + 2_000, { agent: 'opencode', trigger: 'after a compaction' }),
    ].join('');
    assert.deepEqual(activity(text, [boundary('b1', T1)]).get('b1')?.sessionStart, { printed: true, error: null, constraints: 2, openLoops: 1 });
  });
});
