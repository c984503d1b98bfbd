// Every call a Claude Code session paid for, for its cost: the whole file (calls before a
// compaction were paid too, and so were those of subagents kept in the main file by older versions),
// plus each subagent transcript in `<session>/subagents/`. Claude Code writes one line per content
// block of a response, each with the response's usage so far: a response is counted once, by its
// message id and request id, with its newest line's usage (the final output count).
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { failFromError, ok } from '../result';
import type { Result, SessionCall, SessionCalls, SessionInfo } from '../types';
import { forEachRecord } from './jsonl';
import { readSessionInfo } from './listing';
import { isSubagentTranscript } from './paths';
import { messageOf, str, usageOf, uuidOf } from './records';

/** Lines without this cannot hold a usage: skipped unparsed. */
const USAGE_KEY = Buffer.from('"usage"');

export async function readFileCalls(path: string): Promise<SessionCall[]> {
  const calls = new Map<string, SessionCall>();
  await forEachRecord(path, { wanted: (bytes) => bytes.includes(USAGE_KEY) }, ({ record }) => {
    const usage = usageOf(record);
    if (usage === null) return;
    const message = messageOf(record);
    const key = `${str(message?.id) ?? uuidOf(record) ?? calls.size}:${str(record.requestId) ?? ''}`;
    // Deleted and set again: a response is placed where its last line is (the order calls were paid in).
    calls.delete(key);
    calls.set(key, { usage, model: str(message?.model), at: str(record.timestamp) });
  });
  return [...calls.values()];
}

/** The session's calls and, for a main session, those of its subagents' transcripts. */
export async function readSessionCalls(session: SessionInfo): Promise<Result<SessionCalls>> {
  let calls: SessionCall[];
  try {
    calls = await readFileCalls(session.path);
  } catch (error) {
    return failFromError(error, session.path);
  }
  const subagents: SessionCalls['subagents'] = [];
  if (!session.isSidechain) {
    const folder = join(session.projectDir, session.id, 'subagents');
    const files = (await readdir(folder).catch(() => [] as string[])).filter((name) => isSubagentTranscript(name)).sort();
    for (const name of files) {
      const info = await readSessionInfo(join(folder, name), session.id);
      const agentCalls = info.ok ? await readFileCalls(info.value.path).catch(() => null) : null;
      if (info.ok && agentCalls !== null) subagents.push({ session: info.value, calls: agentCalls });
    }
  }
  return ok({ calls, subagents });
}
