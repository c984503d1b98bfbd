// Large transcripts for benchmarks and the first-paint e2e test: copies of a session recorded with
// the real Claude Code CLI, chained into one conversation (fresh uuids per copy, each copy's root hung
// on the previous copy's leaf), optionally with a compaction near the end so that only the last
// `liveBytes` are the live context, as in a long session that was compacted.
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const FIXTURES = join(__dirname, '..', '..', 'test', 'fixtures', 'claude-code');
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** The recording's response, tool call and request ids (`msg_fake…`, `toolu_fake…`, `req_fake_…`). */
const API_ID = /\b(msg|toolu|req)_fake_?[0-9]+/g;
export const MB = 1024 * 1024;

/** The lines of a recorded scenario's transcript (default: multi-prompt, seven prompts of ordinary work). */
export function template(scenario = 'multi-prompt'): string[] {
  const projects = join(FIXTURES, scenario, 'projects');
  if (!existsSync(projects)) throw new Error(`Recorded fixtures missing: test/fixtures/claude-code/${scenario}`);
  const project = join(projects, readdirSync(projects)[0] as string);
  const file = readdirSync(project).find((name) => name.endsWith('.jsonl')) as string;
  return readFileSync(join(project, file), 'utf8').trim().split('\n');
}

/** A uuid of copy `copy`: same first 24 characters, the copy number in the last 12. */
export function renamed(uuid: string, copy: number): string {
  return `${uuid.slice(0, 24)}${copy.toString(16).padStart(12, '0')}`;
}

/**
 * A line of copy `copy` (every uuid and API id in it renamed), e.g. to append a response to a built
 * transcript. Each copy's responses are responses of their own, as in a real session: a reader that
 * joins the lines of one response, or counts each call once, finds them apart.
 */
export function lineOfCopy(line: string, copy: number): string {
  return line.replace(UUID, (uuid) => renamed(uuid, copy)).replace(API_ID, (id) => `${id}_${copy.toString(16)}`);
}

export interface BuildOptions {
  bytes: number;
  /** Put a compact boundary so that about this many bytes follow it (the live context). */
  liveBytes?: number;
  /**
   * The boundary's `compactMetadata.preservedSegment` (a partial compaction keeps part of the old
   * chain): `present` names the last record before it, `dangling` names records that are in no
   * line of the file (a copied or trimmed transcript), which must not send a reader through the
   * whole file looking for them. Omitted: a plain compaction.
   */
  preserved?: 'present' | 'dangling';
  /**
   * No boundary, but a new chain (a root, `parentUuid: null`) so that about this many bytes follow
   * it: the live conversation starts there, and the copies before it form an older chain that ends
   * at its own root, the file's first line (as when a session is resumed without its history).
   */
  rootBytes?: number;
}

/** What `buildTranscript` wrote: copies, bytes, the boundary's uuid or the live chain's root when there is one. */
export interface BuiltTranscript {
  copies: number;
  bytes: number;
  boundaryUuid?: string;
  rootUuid?: string;
}

export function buildTranscript(lines: readonly string[], path: string, options: BuildOptions): BuiltTranscript {
  const records = lines.map((line) => JSON.parse(line) as { uuid?: string; parentUuid?: string | null; type?: string });
  const lastUuid = records.findLast((record) => record.uuid !== undefined)?.uuid as string;
  const copyBytes = lines.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
  const copies = Math.max(1, Math.ceil(options.bytes / copyBytes));
  const lastCopies = (bytes: number | undefined): number => (bytes === undefined ? -1 : Math.max(0, copies - Math.max(1, Math.round(bytes / copyBytes)) - 1));
  const boundaryAfter = lastCopies(options.liveBytes);
  const newRoot = lastCopies(options.rootBytes) + 1;
  writeFileSync(path, '');
  let written = 0;
  let previousLeaf: string | null = null;
  let boundaryUuid: string | undefined;
  let chunk: string[] = [];
  for (let copy = 0; copy < copies; copy++) {
    for (const [index, line] of lines.entries()) {
      let text = lineOfCopy(line, copy);
      if (previousLeaf !== null && copy !== newRoot && records[index]?.parentUuid === null && records[index]?.uuid !== undefined)
        text = text.replace('"parentUuid":null', `"parentUuid":"${previousLeaf}"`);
      chunk.push(text);
    }
    previousLeaf = renamed(lastUuid, copy);
    if (copy === boundaryAfter) {
      boundaryUuid = renamed('b0000000-0000-4000-8000-000000000000', copy);
      const summary = renamed('50000000-0000-4000-8000-000000000000', copy);
      const kept = options.preserved === 'dangling' ? renamed('d0000000-0000-4000-8000-000000000000', copy) : previousLeaf;
      const segment = options.preserved === undefined ? {} : { preservedSegment: { headUuid: kept, anchorUuid: summary, tailUuid: kept } };
      chunk.push(
        JSON.stringify({
          parentUuid: null,
          logicalParentUuid: previousLeaf,
          isSidechain: false,
          type: 'system',
          subtype: 'compact_boundary',
          content: 'Conversation compacted',
          timestamp: '2026-11-22T09:00:00.000Z',
          uuid: boundaryUuid,
          compactMetadata: { trigger: 'auto', preTokens: 160000, postTokens: 9000, ...segment },
        }),
      );
      chunk.push(
        JSON.stringify({
          parentUuid: boundaryUuid,
          isSidechain: false,
          type: 'user',
          message: { role: 'user', content: 'This session is being continued… summary' },
          isCompactSummary: true,
          isVisibleInTranscriptOnly: true,
          timestamp: '2026-11-22T09:00:00.001Z',
          uuid: summary,
        }),
      );
      previousLeaf = summary;
    }
    if (chunk.length > 2000 || copy === copies - 1) {
      const text = `${chunk.join('\n')}\n`;
      appendFileSync(path, text);
      written += Buffer.byteLength(text);
      chunk = [];
    }
  }
  const root = records.find((record) => record.parentUuid === null && record.uuid !== undefined)?.uuid;
  const rootUuid = options.rootBytes !== undefined && root !== undefined ? renamed(root, newRoot) : undefined;
  return { copies, bytes: written, ...(boundaryUuid ? { boundaryUuid } : {}), ...(rootUuid ? { rootUuid } : {}) };
}

/**
 * The copies keep the recorded responses' message and request ids, so every copy would be the same
 * calls counted once; a real session of that size has a response per copy and call: each copy's ids
 * get its copy number (the last 12 digits of its renamed uuids).
 */
export function distinctResponses(path: string): void {
  const lines = readFileSync(path, 'utf8').split('\n');
  const renamed = lines.map((line) => {
    const copy = /"uuid":"[0-9a-f-]{24}([0-9a-f]{12})"/.exec(line)?.[1];
    return copy === undefined ? line : line.replace(/"(id|requestId)":"((?:msg|req)_[^"]+)"/g, `"$1":"$2_${copy}"`);
  });
  writeFileSync(path, renamed.join('\n'));
}
