// What the status line command needs of the adapter, as its own light entry (the adapter would pull
// every reader into the status line's ~1 KB bundle; see sessions/statusLine.ts): the auto-compact
// point, and the fallback when Claude Code's input has no `context_window` (older versions, or
// before the first response of a session): the newest usage in the transcript's tail. Imports only
// the light readers (no engine, no tokenizer) so a redraw stays about as cheap as starting node.
import { openRegularFile } from '../result';
import type { StatusLineSource, TranscriptFill } from '../statusLine';
import { isSidechain, messageOf, obj, str, usageOf, type RawRecord } from './records';
import { linesBackward } from '../common/tail';
import { agentAutoCompactTokens, percentOverrideFromEnv, resolveWindow } from './window';
import { promptTokensOf } from '../common/usage';
// The status line's bundle stays small: this one file, not pricing's door (which brings the price tables).
// eslint-disable-next-line no-restricted-imports
import { findMisses, type CacheCall } from '../../pricing/cache/misses';
import type { TranscriptCache } from '../statusLine';

/** The newest response sits in the last lines; a status line never reads further than this. */
const TAIL_LIMIT_BYTES = 1024 * 1024;
const USAGE_MARKER = Buffer.from('"usage"');

/** Tokens the last request of the main conversation sent, and its window; null when none is found. */
async function transcriptFill(path: string): Promise<TranscriptFill | null> {
  const opened = await openRegularFile(path);
  if (!opened.ok) return null;
  const handle = opened.value;
  try {
    const { size } = await handle.stat();
    // Never past the limit, and no line longer than it is gathered: a redraw stays cheap on any file.
    for await (const line of linesBackward(handle, size, { floor: Math.max(0, size - TAIL_LIMIT_BYTES), maxLineBytes: TAIL_LIMIT_BYTES })) {
      if (!line.terminated || line.bytes.indexOf(USAGE_MARKER) === -1) continue;
      let record: RawRecord | null;
      try {
        record = obj(JSON.parse(line.bytes.toString('utf8')));
      } catch {
        continue;
      }
      if (record === null || isSidechain(record)) continue;
      const usage = usageOf(record);
      if (usage === null) continue;
      const usedTokens = promptTokensOf(usage);
      const model = str(messageOf(record)?.model);
      return { usedTokens, windowTokens: resolveWindow({ model, observedTokens: usedTokens }).tokens };
    }
    return null;
  } catch {
    return null;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** The tail's main-chain calls, oldest first, each response once (its lines share a message id). */
async function transcriptCache(path: string): Promise<TranscriptCache | null> {
  const opened = await openRegularFile(path);
  if (!opened.ok) return null;
  const handle = opened.value;
  const calls: CacheCall[] = [];
  const seen = new Set<string>();
  try {
    const { size } = await handle.stat();
    for await (const line of linesBackward(handle, size, { floor: Math.max(0, size - TAIL_LIMIT_BYTES), maxLineBytes: TAIL_LIMIT_BYTES })) {
      if (!line.terminated || line.bytes.indexOf(USAGE_MARKER) === -1) continue;
      let record: RawRecord | null;
      try {
        record = obj(JSON.parse(line.bytes.toString('utf8')));
      } catch {
        continue;
      }
      const usage = record === null || isSidechain(record) ? null : usageOf(record);
      if (record === null || usage === null) continue;
      const message = messageOf(record);
      const id = str(message?.id) ?? str(record.uuid) ?? '';
      if (seen.has(id)) continue;
      seen.add(id);
      calls.push({ usage, model: str(message?.model), at: str(record.timestamp) });
    }
  } catch {
    return null;
  } finally {
    await handle.close().catch(() => undefined);
  }
  if (calls.length === 0) return null;
  // Read newest first. Unpriced: a status line reads no price table.
  const health = findMisses(calls.reverse());
  return { hitRatio: health.hitRatio, calls: health.calls, misses: health.misses.length, lastCause: health.misses.at(-1)?.cause ?? null };
}

export const claudeCodeStatusLine: StatusLineSource = {
  transcriptFill,
  transcriptCache,
  autoCompactTokens: (windowTokens, env) => agentAutoCompactTokens(windowTokens, { percentOverride: percentOverrideFromEnv(env) }),
};
