// Apply for Gemini CLI: a new chat file beside the source (same project, a short id no other file
// there has), our summary and the kept messages in the CLI's record shape, every kept call with its
// result inside its gemini message, and the source never touched.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { MemoryArchive } from '../../../../src/engine/archive';
import { compact } from '../../../../src/engine/compact';
import type { EngineOptionsInput } from '../../../../src/engine/options';
import { SUMMARY_PREAMBLE } from '../../../../src/sessions/common/forkTexts';
import { engineContextOf } from '../../../../src/sessions/engineContext';
import { chatFileName, SUMMARY_ACK } from '../../../../src/sessions/gemini/fork';
import { writeGeminiFork } from '../../../../src/sessions/gemini/forkFromResult';
import { readGeminiLiveContext } from '../../../../src/sessions/gemini/liveContext';
import type { ForkInput } from '../../../../src/sessions/port';

const RECORDED = join(__dirname, '..', '..', '..', 'fixtures', 'gemini', 'recorded');
const NOW = new Date('2026-11-24T10:20:30Z');
const ID = '0a1b2c3d-4e5f-4a00-8000-000000000001';
const FILE_ID = 'f1e2d3c4-0000-4000-8000-000000000002';
/** The ids the writer draws: the session's, then the one its file name takes its short id from. */
const ids =
  (...drawn: string[]): (() => string) =>
  () =>
    drawn.shift() ?? '';

type Rec = Record<string, unknown> & { type?: string; content?: unknown; toolCalls?: { id: string; result?: unknown }[] };

const root = mkdtempSync(join(tmpdir(), 'cl-gemini-fork-unit-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A private copy of a recorded scenario and its first (oldest) chat file. */
function install(scenario: string): string {
  const home = join(root, `${scenario}-${readdirSync(root).length}`);
  cpSync(join(RECORDED, scenario), home, { recursive: true });
  const project = readdirSync(join(home, 'gemini', 'tmp'))[0] ?? '';
  const chats = join(home, 'gemini', 'tmp', project, 'chats');
  return join(chats, readdirSync(chats).sort()[0] ?? '');
}

async function compacted(path: string, options: EngineOptionsInput): Promise<ForkInput> {
  const live = await readGeminiLiveContext(path);
  assert.ok(live.ok, live.ok ? '' : live.error.message);
  const context = engineContextOf(live.value);
  const result = await compact(context, { trigger: 'manual', ...options }, { archive: new MemoryArchive() });
  assert.equal(result.status, 'compacted', result.message);
  return { live: live.value, context, result, title: 'fork title' };
}

const records = (path: string): Rec[] =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Rec);
const textOf = (record: Rec | undefined): string => (typeof record?.content === 'string' ? record.content : JSON.stringify(record?.content ?? ''));

describe('writeGeminiFork', () => {
  it('writes a new chat beside the source: our mark, the summary with the rule and the open loop, the kept messages', async () => {
    const source = install('resume');
    const before = readFileSync(source);
    const input = await compacted(source, { preserve: { recentTurns: 1, recentPercent: 0 } });
    const fork = await writeGeminiFork(input, { now: () => NOW, newId: ids(ID, FILE_ID) });
    assert.ok(fork.ok, fork.ok ? '' : fork.error.message);
    assert.deepEqual(readFileSync(source), before, 'the source is untouched');
    assert.equal(fork.value.sessionId, ID);
    assert.equal(fork.value.resumeCommand, `gemini -r ${ID}`);
    assert.equal(dirname(fork.value.path), dirname(source), 'in the same chats folder (the same project)');
    // Not the session id's short id: the stub a later resume leaves is named after that one, and the
    // retention cleanup deletes every file sharing the short id of an unresumable one.
    assert.equal(basename(fork.value.path), 'session-2026-11-24T10-20-f1e2d3c4.jsonl');
    assert.equal(chatFileName('f1e2d3c4', NOW), basename(fork.value.path));

    const [header, ...messages] = records(fork.value.path);
    const sourceId = (records(source)[0] as { sessionId: string }).sessionId;
    assert.deepEqual((header?.contextLens as { forkOf: unknown }).forkOf, { sessionId: sourceId, title: input.live.session.title });
    assert.equal(header?.sessionId, ID);
    assert.equal(header?.projectHash, records(source)[0]?.projectHash, 'the project the CLI looks the session up in');
    assert.equal(header?.summary, 'fork title', 'the name the CLI shows in its session list');

    const summaryAt = messages.findIndex((record) => textOf(record).includes(SUMMARY_PREAMBLE));
    assert.ok(summaryAt >= 0, 'the summary is a user message');
    const summary = textOf(messages[summaryAt]);
    assert.equal(messages[summaryAt]?.type, 'user');
    assert.match(summary, /Standing rule: no new dependencies/, 'the rule the person typed');
    assert.ok(
      messages.some((record) => textOf(record).includes('we still need a --help flag')),
      'the open loop the person left',
    );
    assert.equal(messages[summaryAt + 1]?.type, 'gemini', 'the model answers the summary: the history alternates');
    assert.equal(messages.at(-1)?.type, 'gemini');
    assert.ok(
      messages.some((record) => textOf(record).includes('continue')),
      'the recent turn is kept verbatim',
    );
    assert.ok(!messages.some((record) => 'tokens' in record), "the source's token counts are not the fork's");
    assert.ok(!messages.some((record) => textOf(record).includes('<session_context>')), 'the CLI adds its own context on resume');

    const read = await readGeminiLiveContext(fork.value.path);
    assert.ok(read.ok, read.ok ? '' : read.error.message);
    assert.equal(read.value.session.forkOf?.sessionId, sourceId);
    assert.deepEqual(
      read.value.diagnostics.filter((diagnostic) => diagnostic.severity === 'error'),
      [],
    );
  });

  it('drops a call together with its result, keeps every other call with its result once, and closes nothing that was answered', async () => {
    const source = install('tools');
    const live = await readGeminiLiveContext(source);
    assert.ok(live.ok);
    const context = engineContextOf(live.value);
    const read = context.items.find((item) => item.kind === 'tool_result');
    const readId = read?.toolUseId;
    assert.ok(read !== undefined && readId !== undefined && readId.startsWith('read_file'));
    const result = await compact(context, { trigger: 'manual', choices: { keep: [], drop: [read.id] } }, { archive: new MemoryArchive() });
    assert.equal(result.status, 'compacted');
    const fork = await writeGeminiFork({ live: live.value, context, result });
    assert.ok(fork.ok, fork.ok ? '' : fork.error.message);
    assert.equal(fork.value.notes, undefined);

    const messages = records(fork.value.path).slice(1);
    const calls = messages.flatMap((record) => record.toolCalls ?? []);
    assert.deepEqual(
      calls.map((call) => call.id.split('__')[0]),
      ['replace', 'write_file', 'run_shell_command'],
    );
    for (const call of calls) assert.ok(Array.isArray(call.result) && call.result.length === 1, `${call.id} keeps its result`);
    assert.ok(!JSON.stringify(messages).includes(readId), 'nothing of the dropped call is left');
    assert.ok(!messages.some((record) => JSON.stringify(record.content ?? '').includes('functionResponse')), 'each result once, inside its call');
    // The summary stands where the dropped call stood: after the prompt, before the message that made it.
    assert.ok(textOf(messages[1]).includes(SUMMARY_PREAMBLE));
    assert.equal(messages[2]?.type, 'gemini');
    assert.equal(
      messages.filter((record) => textOf(record) === JSON.stringify(SUMMARY_ACK) || record.content === SUMMARY_ACK).length,
      0,
      'no acknowledgement before a model message',
    );
  });

  it('refuses to keep a call without its result', async () => {
    const source = install('tools');
    const live = await readGeminiLiveContext(source);
    assert.ok(live.ok);
    const context = engineContextOf(live.value);
    const result = await compact(
      context,
      { trigger: 'manual', choices: { keep: [], drop: [context.items.findIndex((item) => item.kind === 'tool_result')] } },
      { archive: new MemoryArchive() },
    );
    assert.equal(result.status, 'compacted');
    const write = context.items.find((item) => item.kind === 'tool_result' && item.toolUseId?.startsWith('write_file'));
    assert.ok(write);
    // The result as if the engine had dropped the write's result but kept its call: its fate, and its item in `after`.
    const survivors = result.items.filter((fate) => fate.fate !== 'dropped');
    let copied = -1;
    const at = survivors.findIndex((fate) => fate.id === write.id);
    const afterItems = result.after.items.filter(
      (item) => !((item.kind === 'system' || item.kind === 'tools' || item.sourceRef !== undefined) && ++copied === at),
    );
    const split = {
      ...result,
      items: result.items.map((fate) => (fate.id === write.id ? { ...fate, fate: 'dropped' as const } : fate)),
      after: { ...result.after, items: afterItems },
    };
    const fork = await writeGeminiFork({ live: live.value, context, result: split });
    assert.equal(fork.ok ? null : fork.error.code, 'split-tool-pair');
    assert.equal(readdirSync(dirname(source)).length, 1, 'nothing written');
  });

  it('picks short ids no file in the folder has, nor each other (the retention cleanup deletes by short id)', async () => {
    const source = install('tools');
    const input = await compacted(source, { summaryOverride: 'EDITED SUMMARY', preserve: { recentTurns: 0, recentPercent: 0 }, minSavingsPercent: 0 });
    const taken = `${basename(source).slice(-14, -6)}-0000-4000-8000-000000000000`;
    const fork = await writeGeminiFork(input, { now: () => NOW, newId: ids(taken, ID, taken, `${ID.slice(0, 8)}-1111-4000-8000-000000000000`, FILE_ID) });
    assert.ok(fork.ok, fork.ok ? '' : fork.error.message);
    assert.equal(fork.value.sessionId, ID);
    assert.equal(basename(fork.value.path), 'session-2026-11-24T10-20-f1e2d3c4.jsonl');
  });

  it('refuses a source that is not a Gemini chat, without writing', async () => {
    const source = install('tools');
    const input = await compacted(source, { summaryOverride: 'EDITED SUMMARY', preserve: { recentTurns: 0, recentPercent: 0 }, minSavingsPercent: 0 });
    const other = join(dirname(source), 'session-2026-01-01T00-00-ffffffff.jsonl');
    writeFileSync(other, '{"not":"a chat"}\n\u0000\u0000garbage\n');
    const fork = await writeGeminiFork({ ...input, live: { ...input.live, session: { ...input.live.session, path: other } } });
    assert.equal(fork.ok ? null : fork.error.code, 'invalid-input');
    assert.equal(readdirSync(dirname(source)).length, 2);
  });
});
