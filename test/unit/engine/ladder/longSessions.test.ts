// Issue 13's bar, checked on the long sessions recorded with the real CLI (bench/eval holds the
// planted facts and prints the full table with `npm run eval`): compaction to 15 % of the window
// meets the target, ≥ 90 % of the planted facts whose source was compacted still reach the output,
// no revoked rule comes back as a constraint, and the PreCompact hook carries every live constraint
// and open loop and no revoked one.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { SESSIONS } from '../../../../bench/eval/facts';
import { holds, revokedPresented, scoreFacts, writtenText } from '../../../../bench/eval/score';
import { loadSession } from '../../../../bench/eval/sessions';
import { runHook } from '../../../../src/cli/hook';
import { MemoryArchive } from '../../../../src/engine/archive';
import { compact } from '../../../../src/engine/compact';
import { tempDir } from '../../../support/tempDir';

async function hookOutput(transcript: string, cwd: string): Promise<string> {
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  await runHook('pre-compact', JSON.stringify({ transcript_path: transcript, cwd }), {
    out,
    err: new PassThrough(),
    env: { XDG_STATE_HOME: tempDir('cl-long-') },
  });
  return text;
}

describe('long recorded sessions, compacted to 15 % of the window', () => {
  for (const session of SESSIONS) {
    it(session.name, async () => {
      const loaded = await loadSession(session);
      assert.ok(loaded.context.usedTokens >= 90_000, `${loaded.context.usedTokens} tokens`);
      const result = await compact(loaded.context, { trigger: 'manual', explicitTarget: true, targetPercent: 15 }, { archive: new MemoryArchive() });
      assert.ok(result.metrics.targetMet, `${result.metrics.tokensAfter} > ${result.metrics.targetTokens}`);
      const scores = scoreFacts(session, loaded.context, result);
      assert.deepEqual(
        scores.filter((score) => score.missing).map((score) => score.fact.id),
        [],
        'every planted fact is in the recording',
      );
      const compacted = scores.filter((score) => score.compacted);
      const lost = compacted.filter((score) => !score.reached).map((score) => score.fact.id);
      assert.ok(compacted.length - lost.length >= 0.9 * compacted.length, `lost: ${lost.join(', ')}`);
      assert.deepEqual(revokedPresented(writtenText(result), session.revoked), []);
      const hook = await hookOutput(loaded.transcript, loaded.cwd);
      const live = session.facts.filter((fact) => fact.kind === 'constraint' || fact.kind === 'open-loop');
      assert.deepEqual(
        live.filter((fact) => !fact.expect.every((pattern) => holds(hook, pattern))).map((fact) => fact.id),
        [],
        'the hook carries every live constraint and open loop',
      );
      assert.deepEqual(revokedPresented(hook, session.revoked), []);
    });
  }
});
