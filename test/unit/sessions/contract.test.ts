// The adapter contract: every registered agent, through the port alone, over its recorded and
// published sessions. Read, exact fill, follow an append, fork, the fork read back, bad input.
// An agent is added to the registry with its contract subject (test/support/contract/), or this fails.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { MemoryArchive } from '../../../src/engine/archive';
import { compact } from '../../../src/engine/compact';
import type { Context } from '../../../src/engine/model';
import type { CompactionResult } from '../../../src/engine/result';
import { AGENTS } from '../../../src/sessions/agents';
import { engineContextOf } from '../../../src/sessions/engineContext';
import type { AgentAdapter } from '../../../src/sessions/port';
import { heldPaths } from '../../../src/sessions/handle/heldFile';
import { openSession } from '../../../src/sessions/handle/open';
import { findWorkspaceSession, listForks } from '../../../src/sessions/handle/defaults';
import type { ContextChange, LiveContext, SessionInfo } from '../../../src/sessions/types';
import { CONTRACT_SUBJECTS } from '../../support/contract';

const scratchRoot = mkdtempSync(join(tmpdir(), 'cl-contract-'));
after(() => rmSync(scratchRoot, { recursive: true, force: true }));
let scratches = 0;
const scratchDir = (): string => {
  const dir = join(scratchRoot, String(scratches++));
  mkdirSync(dir);
  return dir;
};

/** The next `contextChanged` that `accept` takes, or a failure naming what arrived instead. */
function nextChange(
  adapter: AgentAdapter,
  on: (listener: (change: ContextChange) => void) => void,
  accept: (change: ContextChange) => boolean,
  what: string,
): Promise<ContextChange> {
  const seen: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${adapter.id}: no ${what} within 10 s (saw ${seen.join(', ') || 'nothing'})`)), 10_000);
    on((change) => {
      seen.push(`${change.reason} ${change.fill.usedTokens}`);
      if (!accept(change)) return;
      clearTimeout(timer);
      resolve(change);
    });
  });
}

async function infoOf(adapter: AgentAdapter, path: string): Promise<SessionInfo> {
  const info = await adapter.readSessionInfo(path);
  assert.ok(info.ok, `${adapter.id}: readSessionInfo(${path}): ${info.ok ? '' : info.error.message}`);
  return info.value;
}

/** A session's live context compacted as far down as it goes: a summary (which needs an archive) and every tier below it. */
async function planDeepest(adapter: AgentAdapter, path: string): Promise<{ info: SessionInfo; live: LiveContext; context: Context; result: CompactionResult }> {
  const info = await infoOf(adapter, path);
  const read = await adapter.readLiveContext(info);
  assert.ok(read.ok, read.ok ? '' : read.error.message);
  const context = engineContextOf(read.value);
  const result = await compact(
    context,
    { targetPercent: 1, minSavingsPercent: 0, preserve: { recentTurns: 0, recentPercent: 0 } },
    { archive: new MemoryArchive() },
  );
  assert.equal(result.status, 'compacted', result.message);
  return { info, live: read.value, context, result };
}

for (const adapter of AGENTS) {
  describe(`adapter contract: ${adapter.name} (${adapter.id})`, () => {
    const subject = CONTRACT_SUBJECTS[adapter.id];

    it('has a contract subject and recorded sessions to run on', () => {
      assert.ok(subject, `test/support/contract/index.ts has no subject for '${adapter.id}'`);
      assert.ok(subject.sessions().length > 0, 'no recorded sessions');
      assert.ok(adapter.home.option.length > 0 && Object.keys(adapter.tools.categories).length > 0);
    });

    it('reads every recorded session, each with the exact fill of its last call', async () => {
      let exact = 0;
      for (const recorded of subject!.sessions()) {
        assert.ok(await adapter.owns(recorded.path), `${recorded.name}: owned`);
        const info = await infoOf(adapter, recorded.path);
        assert.equal(info.agent, adapter.id);
        const live = await adapter.readLiveContext(info);
        assert.ok(live.ok, `${recorded.name}: ${live.ok ? '' : live.error.message}`);
        const expected = subject!.lastFillTokens(recorded.path);
        if (expected !== null && live.value.fill.source === 'usage') {
          assert.equal(live.value.fill.usedTokens, expected, `${recorded.name}: the fill is what the agent counted`);
          exact++;
        }
        // The gauge's window and the agent's own point, as the panel's contract takes them (a window of 0 would leave it empty).
        const { windowTokens, agentAutoCompactTokens } = live.value.fill;
        assert.ok(Number.isInteger(windowTokens) && windowTokens > 0, `${recorded.name}: a window (${windowTokens})`);
        assert.ok(Number.isFinite(agentAutoCompactTokens) && agentAutoCompactTokens >= 0, `${recorded.name}: the agent's point (${agentAutoCompactTokens})`);
        // The engine builds its view of every session (an empty one too).
        assert.ok(Array.isArray(engineContextOf(live.value).items));
      }
      assert.ok(exact > 0, 'at least one session has an exact fill to check');
    });

    it('lists a session in its workspace, follows an appended turn to its exact fill', async () => {
      const scratch = subject!.scratch(scratchDir());
      const listed = await adapter.listSessions(scratch.where, scratch.workspace);
      assert.ok(listed.ok && listed.value.some((session) => session.path === scratch.path), 'listed in its workspace');
      // The adapter's own lookup, or the port's default on its listing (handle/defaults.ts).
      const found = await findWorkspaceSession(adapter, scratch.workspace, scratch.where);
      assert.ok(found.ok && found.value?.path === scratch.path, `the workspace's session: ${found.ok ? found.value?.path : found.error.message}`);
      const info = await infoOf(adapter, scratch.path);
      const follower = await adapter.follow(info);
      const changes: ((change: ContextChange) => void)[] = [];
      follower.on('contextChanged', (change) => changes.forEach((listener) => listener(change)));
      const initial = nextChange(
        adapter,
        (listener) => changes.push(listener),
        () => true,
        'first read',
      );
      try {
        await follower.start();
        await initial;
        const appended = nextChange(
          adapter,
          (listener) => changes.push(listener),
          (change) => change.fill.usedTokens === 123_456,
          'fill of the appended call',
        );
        subject!.appendTurn(scratch, 123_456);
        const change = await appended;
        assert.equal(change.fill.source, 'usage');
      } finally {
        follower.dispose();
      }
    });

    it('opens one handle on a session (its own or the default): it follows an appended turn, and its live context and calls move with it, each read once per change', async () => {
      const scratch = subject!.scratch(scratchDir());
      const info = await infoOf(adapter, scratch.path);
      const handle = openSession(adapter, info);
      const changes: ((change: ContextChange) => void)[] = [];
      handle.on('contextChanged', (change) => changes.forEach((listener) => listener(change)));
      const initial = nextChange(
        adapter,
        (listener) => changes.push(listener),
        () => true,
        'first read',
      );
      try {
        await handle.follow();
        await initial;
        assert.ok(handle.fill !== null);
        const first = await handle.liveContext();
        assert.ok(first.ok, first.ok ? '' : first.error.message);
        assert.equal(await handle.liveContext(), first, 'no change: the same read');
        const direct = await adapter.readLiveContext(info);
        assert.ok(direct.ok);
        assert.equal(first.value.live.messages.length, direct.value.messages.length);
        assert.equal(first.value.live.fill.usedTokens, direct.value.fill.usedTokens);
        assert.deepEqual(
          first.value.context.items.map((item) => item.tokens),
          engineContextOf(direct.value).items.map((item) => item.tokens),
        );
        const calls = await handle.calls();
        assert.ok(calls.ok);
        const appended = nextChange(
          adapter,
          (listener) => changes.push(listener),
          (change) => change.fill.usedTokens === 123_456,
          'fill of the appended call',
        );
        subject!.appendTurn(scratch, 123_456);
        await appended;
        assert.equal(handle.fill?.usedTokens, 123_456);
        const next = await handle.liveContext();
        assert.ok(next.ok);
        assert.equal(next.value.live.fill.usedTokens, 123_456, 'the live context read after the change has its fill');
        assert.ok(next.value.live.messages.length > first.value.live.messages.length, 'and the appended turn');
        const callsAfter = await handle.calls();
        assert.ok(callsAfter.ok && callsAfter !== calls);
      } finally {
        await handle.dispose();
      }
      assert.ok(!heldPaths().includes(info.path), 'disposed: the file is no longer held');
    });

    it('writes a fork the agent resumes, reads it back as a fork, and leaves the source as it was', async () => {
      const scratch = subject!.scratch(scratchDir());
      const before = readFileSync(scratch.file);
      const { info, live, context, result } = await planDeepest(adapter, scratch.path);
      const written = await adapter.writeFork({ live, context, result, title: info.title });
      assert.ok(written.ok, written.ok ? '' : written.error.message);
      assert.match(written.value.resumeCommand, new RegExp(`^${adapter.command}\\b`));
      assert.deepEqual(readFileSync(scratch.file), before, 'the source is only read');
      const fork = await infoOf(adapter, written.value.path);
      assert.equal(fork.forkOf?.sessionId, info.id);
      assert.ok(
        (await listForks(adapter, info)).some((listed) => listed.id === written.value.sessionId),
        'listed as a fork of its source',
      );
      const readBack = await adapter.readLiveContext(fork);
      assert.ok(readBack.ok);
      // The summary's words reach the fork as the agent will send them (compared JSON-escaped, as stored).
      assert.ok(result.summary, 'a summary was written');
      const words =
        result.summary.text
          .split('\n')
          .find((line) => line.trim().length > 20)
          ?.trim()
          .slice(0, 40) ?? '';
      assert.ok(JSON.stringify(readBack.value.messages).includes(JSON.stringify(words).slice(1, -1)), `the fork carries the summary ("${words}")`);
    });

    it('writes the fork from the read the plan was made from: a turn the agent appends meanwhile is not in it (issue 40)', async () => {
      const scratch = subject!.scratch(scratchDir());
      const { info, live, context, result } = await planDeepest(adapter, scratch.path);
      // The agent goes on between the plan (Compact…, the preview) and the fork (Apply).
      subject!.appendTurn(scratch, 123_456);
      const written = await adapter.writeFork({ live, context, result, title: info.title });
      assert.ok(written.ok, written.ok ? '' : written.error.message);
      const readBack = await adapter.readLiveContext(await infoOf(adapter, written.value.path));
      assert.ok(readBack.ok);
      // The scratch may hold such a turn already (OpenCode's does): the fork has no more of them than the plan's read.
      const turns = (messages: unknown): number => JSON.stringify(messages).split('One more thing: add a test for the retry.').length - 1;
      assert.ok(turns(readBack.value.messages) <= turns(live.messages), 'the appended turn stays out of the fork');
    });

    it('answers bad input with a result, never a throw or a hang', async () => {
      const scratch = subject!.scratch(scratchDir());
      const damage: [string, () => void][] = [
        ['torn last line', () => writeFileSync(scratch.file, readFileSync(scratch.file).subarray(0, Math.max(0, readFileSync(scratch.file).length - 7)))],
        ['invalid UTF-8', () => writeFileSync(scratch.file, Buffer.concat([readFileSync(scratch.file), Buffer.from([0xff, 0xfe, 0x0a, 0xc3, 0x28, 0x0a])]))],
        ['empty', () => truncateSync(scratch.file, 0)],
        [
          'a named pipe',
          () => {
            rmSync(scratch.file);
            execFileSync('mkfifo', [scratch.file]);
          },
        ],
      ];
      for (const [what, harm] of damage) {
        harm();
        // Each call settles (ok or not): a throw fails the test, a hang its timeout.
        const owned = await adapter.owns(scratch.path);
        const info = await adapter.readSessionInfo(scratch.path);
        if (info.ok) await adapter.readLiveContext(info.value);
        assert.equal(typeof owned, 'boolean', what);
      }
    });
  });
}
