// Claude Code for the adapter contract: its recorded and published transcripts, the last call's
// prompt size read straight from the records, and a turn appended as Claude Code writes one.
import { appendFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { CLAUDE_FIXTURES, claudeFixtures } from '../claudeFixtures';
import type { ContractSubject, ScratchSession } from './subject';
import { copyInto, count, jsonLines, record } from './lines';

const where = (configDir: string) => ({ homes: { 'claude-code': [configDir] } });

export const claudeCodeSubject: ContractSubject = {
  sessions: () =>
    claudeFixtures().flatMap((fixture) =>
      fixture.transcripts.map((path) => ({ name: `${fixture.name}/${path.split('/').at(-1)}`, where: where(fixture.configDir), path })),
    ),
  // Claude Code's fill is the last call's prompt, plus its output once a message follows it.
  lastFillTokens(path) {
    // Walk back from the newest record along its parents (the live branch) to the last counted call.
    const lines = jsonLines(path).filter((line) => typeof line.uuid === 'string' && line.isSidechain !== true);
    const byUuid = new Map(lines.map((line) => [line.uuid, line]));
    let followed = false;
    for (let line = lines.at(-1); line !== undefined; line = byUuid.get(line.parentUuid)) {
      // A compaction replaces what the earlier calls counted.
      if (line.type === 'system' && line.subtype === 'compact_boundary') return null;
      const usage = record(record(line.message)?.usage);
      if (line.type !== 'assistant' || usage === undefined) {
        followed ||= line.type === 'user';
        continue;
      }
      const prompt = count(usage.input_tokens) + count(usage.cache_creation_input_tokens) + count(usage.cache_read_input_tokens);
      // Once a message follows the answer, its output is part of the context too.
      if (prompt > 0) return prompt + (followed ? count(usage.output_tokens) : 0);
      followed = true;
    }
    return null;
  },
  scratch(dir) {
    const demo = claudeFixtures().find((fixture) => fixture.name === 'demo');
    if (demo === undefined) throw new Error(`no demo fixture under ${CLAUDE_FIXTURES}`);
    const path = copyInto(dir, demo.configDir, demo.transcripts[0]!);
    const cwd = jsonLines(path)
      .map((line) => line.cwd)
      .find((value): value is string => typeof value === 'string');
    return { where: where(dir), workspace: cwd ?? '/', path, file: path };
  },
  appendTurn(session: ScratchSession, fillTokens) {
    const lines = jsonLines(session.file);
    const last = lines.findLast((line) => typeof line.uuid === 'string' && line.isSidechain !== true);
    const base = {
      sessionId: last?.sessionId,
      cwd: last?.cwd,
      version: last?.version,
      isSidechain: false,
      userType: 'external',
      timestamp: new Date().toISOString(),
    };
    const user = {
      ...base,
      type: 'user',
      uuid: randomUUID(),
      parentUuid: last?.uuid ?? null,
      message: { role: 'user', content: 'One more thing: add a test for the retry.' },
    };
    const usage = { input_tokens: 10, cache_creation_input_tokens: 90, cache_read_input_tokens: fillTokens - 100, output_tokens: 12 };
    const answer = {
      ...base,
      type: 'assistant',
      uuid: randomUUID(),
      parentUuid: user.uuid,
      requestId: `req_${randomUUID()}`,
      message: {
        id: `msg_${randomUUID()}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text: 'Added.' }],
        stop_reason: 'end_turn',
        usage,
      },
    };
    appendFileSync(session.file, `${JSON.stringify(user)}\n${JSON.stringify(answer)}\n`);
  },
};
