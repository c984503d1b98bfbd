// Every call a Cline session paid for, for its cost: each request Cline counted (legacy: every
// `api_req_started` with counts, cancelled and retried ones too; SDK: every answer's `metrics`),
// and the calls of its subagents (SDK sessions whose manifest names it as their parent).
import { ok } from '../result';
import type { Result, SessionCall, SessionCalls, SessionInfo } from '../types';
import { listClineSessions } from './listing';
import { breakdownOf } from './liveContext';
import { placeOf } from './paths';
import { readTranscript, type ClineRequest } from './records';

const callOf = (request: ClineRequest): SessionCall => ({ usage: breakdownOf(request.usage), model: request.model, at: request.at });

async function callsOf(path: string): Promise<Result<SessionCall[]>> {
  const read = await readTranscript(path);
  if (!read.ok) return read;
  return ok(read.value.requests.map(callOf));
}

/** What Cline itself recorded the session's calls cost (null: it recorded none). */
export async function clineRecordedCost(path: string): Promise<number | null> {
  const read = await readTranscript(path);
  if (!read.ok) return null;
  const costs = read.value.requests.flatMap((request) => (request.usage.cost === null ? [] : [request.usage.cost]));
  return costs.length === 0 ? null : costs.reduce((sum, cost) => sum + cost, 0);
}

export async function readClineSessionCalls(session: SessionInfo): Promise<Result<SessionCalls>> {
  const read = await readTranscript(session.path);
  if (!read.ok) return read;
  const own = read.value.requests.map(callOf);
  const place = placeOf(session.path);
  const subagents: SessionCalls['subagents'] = [];
  // The extension records only its subagents' sums, one per run of them: each a subagent of its own.
  read.value.subagentRequests.forEach((request, index) => {
    const id = `${session.id}-subagents-${index + 1}`;
    subagents.push({
      session: { ...session, id, title: `Subagents of ${session.title} (${index + 1})`, isSidechain: true, parentSessionId: session.id, model: request.model },
      calls: [callOf(request)],
    });
  });
  if (place?.layout === 'sdk' && !session.isSidechain) {
    const listed = await listClineSessions({ homes: [place.dataDir] });
    for (const child of listed.ok ? listed.value : []) {
      if (child.parentSessionId !== session.id) continue;
      const calls = await callsOf(child.path);
      if (calls.ok) subagents.push({ session: child, calls: calls.value });
    }
  }
  return ok({ calls: own, subagents });
}
