// Apply while the agent works (issue 40): the panel's plan was read with a call still running; its
// result lands before the fork is written. The fork is written from the plan's own read, as the
// extension's Apply and `compact --write-session` both call it, so the call is closed as it was
// then, not refused as a pair the plan split ("tool_use … is preserved without its tool_result").
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { MemoryArchive } from '../../../../src/engine/archive';
import { compact } from '../../../../src/engine/compact';
import { adapterOf } from '../../../../src/sessions/agents';
import { engineContextOf } from '../../../../src/sessions/engineContext';
import { CLAUDE_FIXTURES } from '../../../support/claudeFixtures';

const FIXTURE = join(CLAUDE_FIXTURES, 'long-autonomous', 'projects', '-home-user-semver-cli', '78939266-a444-4f88-991a-bec71f2436c9.jsonl');
const adapter = adapterOf('claude-code');

describe('a Claude Code fork written while the agent appends', () => {
  const root = mkdtempSync(join(tmpdir(), 'cl-fork-snapshot-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it("is written from the plan's read: a result arriving meanwhile neither splits a pair nor enters the fork", async () => {
    const lines = readFileSync(FIXTURE, 'utf8').split('\n').filter(Boolean);
    // Up to a tool call whose result is the next records: the call is running when the plan reads.
    const call = lines.findIndex((line, index) => index > 200 && line.includes('"type":"tool_use"') && !lines[index + 1]?.includes('"type":"tool_use"'));
    const result = lines.findIndex((line, index) => index > call && line.includes('"type":"tool_result"'));
    const project = join(root, 'projects', '-home-user-semver-cli');
    mkdirSync(project, { recursive: true });
    const path = join(project, '78939266-a444-4f88-991a-bec71f2436c9.jsonl');
    writeFileSync(path, `${lines.slice(0, call + 1).join('\n')}\n`);

    const session = await adapter.readSessionInfo(path);
    assert.ok(session.ok);
    const live = await adapter.readLiveContext(session.value);
    assert.ok(live.ok);
    const context = engineContextOf(live.value);
    const planned = await compact(context, { trigger: 'manual' }, { archive: new MemoryArchive() });
    assert.equal(planned.status, 'compacted', planned.message);
    // The tool finishes: its result (and what follows it) is appended between the plan and the fork.
    appendFileSync(path, `${lines.slice(call + 1, result + 1).join('\n')}\n`);

    const fork = await adapter.writeFork({ live: live.value, context, result: planned, title: session.value.title });
    assert.ok(fork.ok, fork.ok ? '' : fork.error.message);
    assert.ok(
      fork.value.notes?.some((note) => /had no result/i.test(note) || /closed/i.test(note)),
      JSON.stringify(fork.value.notes),
    );
    // The call has one result in the fork: the one closing it, not the one written after the plan.
    const resultId = /"tool_use_id":"([^"]+)"/.exec(lines[result] ?? '')?.[1] ?? '';
    type Block = { type?: string; tool_use_id?: string; content?: unknown };
    const appended = (JSON.parse(lines[result] ?? '{}') as { message: { content: Block[] } }).message.content[0]?.content;
    const results = readFileSync(fork.value.path, 'utf8')
      .split('\n')
      .filter(Boolean)
      .flatMap((line) => {
        const content = (JSON.parse(line) as { message?: { content?: unknown } }).message?.content;
        return Array.isArray(content) ? (content as Block[]) : [];
      })
      .filter((block) => block.type === 'tool_result' && block.tool_use_id === resultId);
    assert.equal(results.length, 1);
    assert.notDeepEqual(results[0]?.content, appended);
  });
});
