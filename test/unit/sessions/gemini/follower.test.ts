// Following a Gemini CLI chat live: lines appended (a call's counts, a compression), the file
// replaced (a resume that rewrites it: new inode), written again in place (same inode, new first
// line), and the legacy one-object chat the old CLIs rewrote on every message.
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { GeminiSessionFollower } from '../../../../src/sessions/gemini/follower';
import type { CompactionEvent, ContextChange, Diagnostic } from '../../../../src/sessions/types';
import { gemini, HEADER, lines, sessionContext, user } from './syntheticChat';

const RECORDED = join(__dirname, '..', '..', '..', 'fixtures', 'gemini', 'recorded');

function recordedLines(scenario: string): string[] {
  const chats = join(RECORDED, scenario, 'gemini', 'tmp');
  const [project] = readdirSync(chats);
  const folder = join(chats, project as string, 'chats');
  const [name] = readdirSync(folder).sort();
  return readFileSync(join(folder, name as string), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => `${line}\n`);
}

function follow(path: string): { follower: GeminiSessionFollower; changes: ContextChange[]; compactions: CompactionEvent[]; diagnostics: Diagnostic[] } {
  // A long poll: the tests drive reads with refresh(), so no timer races them.
  const follower = new GeminiSessionFollower(path, { pollMs: 60_000, debounceMs: 1 });
  const changes: ContextChange[] = [];
  const compactions: CompactionEvent[] = [];
  const diagnostics: Diagnostic[] = [];
  follower.on('contextChanged', (change) => changes.push(change));
  follower.on('compacted', (event) => compactions.push(event));
  follower.on('diagnostic', (diagnostic) => diagnostics.push(diagnostic));
  return { follower, changes, compactions, diagnostics };
}

describe('GeminiSessionFollower', () => {
  const temp = mkdtempSync(join(tmpdir(), 'cl-gemini-follow-'));
  after(() => rmSync(temp, { recursive: true, force: true }));

  it('reads appended lines: a half-written line waits for its newline, the new call sets the fill', async () => {
    const path = join(temp, 'append.jsonl');
    const all = recordedLines('tools');
    writeFileSync(path, all.slice(0, 13).join(''));
    const { follower, changes } = follow(path);
    await follower.start();
    assert.equal(changes[0]?.reason, 'initial');
    assert.equal(changes[0]?.fill.usedTokens, 11661);
    const rest = all.slice(13).join('');
    appendFileSync(path, rest.slice(0, rest.length - 40));
    await follower.refresh();
    appendFileSync(path, rest.slice(rest.length - 40));
    await follower.refresh();
    const last = changes.at(-1);
    assert.equal(last?.reason, 'append');
    assert.equal(last?.fill.usedTokens, 12173);
    assert.equal(last?.fill.outputTokensPending, 36);
    assert.ok(changes.flatMap((change) => change.newUuids).includes(JSON.parse(all[24] as string).id));
    follower.dispose();
  });

  it('announces the compression when its snapshot is appended, and the post-compression count after it', async () => {
    const path = join(temp, 'compress.jsonl');
    const all = recordedLines('compress');
    writeFileSync(path, all.slice(0, 20).join(''));
    const { follower, changes, compactions } = follow(path);
    await follower.start();
    assert.equal(changes[0]?.fill.usedTokens, 900000);
    appendFileSync(path, all.slice(20, 22).join(''));
    await follower.refresh();
    assert.equal(compactions.length, 1);
    assert.match(compactions[0]?.summary ?? '', /^<state_snapshot>/);
    assert.equal(changes.at(-1)?.fill.source, 'estimate');
    assert.equal(changes.at(-1)?.fill.compactedSinceUsage, true);
    appendFileSync(path, all.slice(22).join(''));
    await follower.refresh();
    assert.equal(changes.at(-1)?.fill.usedTokens, 11860);
    follower.dispose();
  });

  it('reads a replaced file (new inode) again from the start', async () => {
    const path = join(temp, 'replaced.jsonl');
    writeFileSync(path, lines([HEADER, sessionContext(), user('u1', 'first'), gemini('g1', 'one', 1000)]));
    const { follower, changes } = follow(path);
    await follower.start();
    writeFileSync(
      `${path}.tmp`,
      lines([HEADER, sessionContext(), user('u1', 'first'), gemini('g1', 'one', 1000), user('u2', 'second'), gemini('g2', 'two', 2500)]),
    );
    renameSync(`${path}.tmp`, path);
    await follower.refresh();
    assert.equal(changes.at(-1)?.reason, 'reset');
    assert.equal(changes.at(-1)?.fill.usedTokens, 2500);
    follower.dispose();
  });

  it('reads a file written again in place (same inode, longer, another first line) whole, not as appended lines', async () => {
    const path = join(temp, 'inplace.jsonl');
    writeFileSync(path, lines([HEADER, user('u1', 'first'), gemini('g1', 'one', 1000)]));
    const { follower, changes, diagnostics } = follow(path);
    await follower.start();
    writeFileSync(
      path,
      lines([
        { ...HEADER, startTime: '2026-11-25T11:00:00.000Z' },
        user('u1', 'first, rewritten'),
        gemini('g1', 'one', 1000),
        user('u2', 'second'),
        gemini('g2', 'two', 3300),
      ]),
    );
    await follower.refresh();
    assert.equal(changes.at(-1)?.fill.usedTokens, 3300);
    assert.ok(diagnostics.some((diagnostic) => diagnostic.code === 'file-rewritten'));
    assert.deepEqual(
      diagnostics.filter((diagnostic) => diagnostic.code === 'invalid-json'),
      [],
    );
    follower.dispose();
  });

  it('follows a legacy one-object chat the old CLI rewrote on every message', async () => {
    const folder = join(temp, 'legacy', '.gemini', 'tmp', 'hash', 'chats');
    mkdirSync(folder, { recursive: true });
    const path = join(folder, 'session-2025-10-10T20-48-2d930cce.json');
    const chat = (messages: Record<string, unknown>[]): string => JSON.stringify({ ...HEADER, messages }, null, 2);
    writeFileSync(path, chat([user('u1', 'count lines'), gemini('g1', '5 poem.md', 11578)]));
    const { follower, changes } = follow(path);
    await follower.start();
    assert.equal(changes[0]?.fill.usedTokens, 11578);
    writeFileSync(path, chat([user('u1', 'count lines'), gemini('g1', '5 poem.md', 11578), user('u2', 'and words?'), gemini('g2', '20 words', 11620)]));
    await follower.refresh();
    assert.equal(changes.at(-1)?.fill.usedTokens, 11620);
    follower.dispose();
  });
});
