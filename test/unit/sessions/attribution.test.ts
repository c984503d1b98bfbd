// On every session we have, recorded and published, of both agents: the items are sized from the
// agent's own per-call usage. At every call the parts before its response add up to the prompt it
// sent (and with the response, to prompt + output); the system prompt and tools never weigh more
// than the first call's prompt; and what no call measured is the only estimate.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contextFromMessages, sumTokens, type Context } from '../../../src/engine';
import { estimateTokenizer } from '../../../src/engine/tokens/estimate';
import { readLiveContext } from '../../../src/sessions/claude-code/liveContext';
import { readCodexLiveContext } from '../../../src/sessions/codex';
import { promptTokensOf } from '../../../src/sessions/common/usage';
import { engineContextOf } from '../../../src/sessions/engineContext';
import type { LiveContext, Result } from '../../../src/sessions/types';
import { claudeTranscripts } from '../../support/claudeFixtures';
import { codexRollouts } from '../../support/codexFixtures';

/** Calls checked per session: spread over the whole session (a long one has hundreds). */
const CALLS_CHECKED = 25;

/** The context as it stood at call `k`: the messages through its response, the calls through it. */
function contextAtCall(live: LiveContext, k: number): Context {
  const call = live.calls[k];
  assert.ok(call);
  return contextFromMessages({
    ...(live.system ? { system: live.system } : {}),
    ...(live.tools ? { tools: live.tools } : {}),
    headNotRecorded: live.system === undefined && live.tools === undefined,
    messages: live.messages.slice(0, call.to + 1),
    calls: live.calls
      .slice(0, k + 1)
      .map((measured) => ({ from: measured.from, to: measured.to, promptTokens: promptTokensOf(measured.usage), outputTokens: measured.usage.outputTokens })),
    windowTokens: live.fill.windowTokens,
    tokenizer: estimateTokenizer,
  });
}

function check(name: string, live: LiveContext): void {
  const context = engineContextOf(live);
  assert.equal(sumTokens(context.items), context.usedTokens, `${name}: the parts add up to the total`);
  const calls = context.calls ?? [];
  if (calls.length === 0) return;
  const firstPrompt = calls[0]?.promptTokens ?? 0;
  const head = sumTokens(context.items.filter((item) => item.messageIndex < 0));
  assert.ok(head <= firstPrompt, `${name}: head ${head} > first prompt ${firstPrompt}`);
  const estimated = sumTokens(context.items.filter((item) => item.basis === 'estimated'));
  assert.equal(context.usedTokens, (context.measuredTokens ?? 0) + estimated, `${name}: measured + estimated`);
  const step = Math.max(1, Math.floor(live.calls.length / CALLS_CHECKED));
  for (let k = 0; k < live.calls.length; k += step) {
    const at = contextAtCall(live, k);
    const used = at.calls?.at(-1);
    if (used === undefined) continue;
    const before = sumTokens(at.items.filter((item) => item.messageIndex < used.from));
    assert.equal(before, used.promptTokens, `${name}: call ${k}, the parts before its response`);
    assert.equal(sumTokens(at.items), used.promptTokens + used.outputTokens, `${name}: call ${k} with its response`);
  }
}

function readOk(read: Result<LiveContext>, name: string): LiveContext {
  assert.ok(read.ok, `${name}: ${read.ok ? '' : read.error.message}`);
  return read.value;
}

describe('items sized from usage, on every Claude Code transcript', () => {
  for (const { name, path } of claudeTranscripts()) it(name, async () => check(name, readOk(await readLiveContext(path), name)));
});

describe('items sized from usage, on every Codex rollout', () => {
  for (const { name, path } of codexRollouts()) it(name, async () => check(name, readOk(await readCodexLiveContext(path), name)));
});
