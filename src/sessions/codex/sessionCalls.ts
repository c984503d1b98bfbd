// Every call a Codex session paid for, for its cost: each counted response of the whole rollout
// (before its compactions too), on the model of the turn it ran in. Same rule as the live calls
// (calls.ts): a `token_count` after new model output closes one call; repeats close none.
import { ok, withFile } from '../result';
import type { Result, SessionCall, SessionCalls, SessionInfo } from '../types';
import { ResponseCounter, usageBreakdownOf } from './calls';
import { scanRollout } from './reader';
import { timestampOf, turnModelOf } from './records';

export async function readCodexSessionCalls(session: SessionInfo): Promise<Result<SessionCalls>> {
  return withFile(session.path, async (handle) => {
    const calls: SessionCall[] = [];
    const responses = new ResponseCounter();
    let model: string | null = null;
    await scanRollout(handle, session.path, {}, (located) => {
      model = turnModelOf(located.record) ?? model;
      const counted = responses.observe(located);
      if (counted !== null) calls.push({ usage: usageBreakdownOf(counted.usage), model, at: timestampOf(located.record) });
    });
    return ok({ calls, subagents: [] });
  });
}
