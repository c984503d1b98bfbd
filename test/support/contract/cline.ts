// Cline for the adapter contract: the sessions the real CLI 3.0.65 recorded (SDK layout, one data
// folder per fixture) with their last call's prompt as the stand-in counted it, and the task folders
// people published from the VS Code extension with the fill Cline counted at their last request.
// A turn is appended as Cline writes one: its messages file written again whole.
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { copyRecorded, lastRequestFill, publishedStorages, RECORDED_CLINE, recordedPath } from '../clineFixtures';
import { CLINE_FIXTURES } from '../clineFixtures';
import type { ContractSubject, RecordedSession, ScratchSession } from './subject';

const where = (home: string) => ({ homes: { cline: [home] } });
let turns = 0;

export const clineSubject: ContractSubject = {
  sessions: () => {
    const recorded: RecordedSession[] = RECORDED_CLINE.map(({ fixture, id }) => {
      const home = join(CLINE_FIXTURES, 'recorded', fixture);
      return { name: `recorded/${fixture}/${id}`, where: where(home), path: recordedPath(home, id) };
    });
    const published: RecordedSession[] = [...publishedStorages()].flatMap(([source, storage]) =>
      readdirSync(join(storage, 'tasks')).map((task) => ({
        name: `published/${source}/${task}`,
        where: where(storage),
        path: join(storage, 'tasks', task, 'api_conversation_history.json'),
      })),
    );
    return [...recorded, ...published];
  },
  lastFillTokens(path) {
    if (basename(path) === 'api_conversation_history.json') return lastRequestFill(dirname(path));
    return RECORDED_CLINE.find((recorded) => path === recordedPath(join(CLINE_FIXTURES, 'recorded', recorded.fixture), recorded.id))?.fill ?? null;
  },
  scratch(dir) {
    const tools = RECORDED_CLINE.find((recorded) => recorded.fixture === 'tools')!;
    const home = copyRecorded('tools', dir);
    const path = recordedPath(home, tools.id);
    const scratch = { where: where(home), workspace: tools.workspace, path, file: path };
    // One more prompt: the first turn (four tool calls) is then what a compaction can take.
    clineSubject.appendTurn(scratch, 6000);
    return scratch;
  },
  appendTurn(session: ScratchSession, fillTokens) {
    const document = JSON.parse(readFileSync(session.file, 'utf8')) as { messages: unknown[] };
    const n = ++turns;
    const now = Date.now();
    document.messages.push(
      {
        id: `contract-user-${n}`,
        role: 'user',
        content: [{ type: 'text', text: '<user_input mode="act">One more thing: add a test for the retry.</user_input>' }],
        ts: now,
      },
      {
        id: `contract-answer-${n}`,
        role: 'assistant',
        content: [{ type: 'text', text: 'Added.' }],
        ts: now + 1,
        modelInfo: { id: 'fake-model', provider: 'openai-compatible' },
        metrics: { inputTokens: fillTokens, outputTokens: 12, cacheReadTokens: fillTokens - 100, cacheWriteTokens: 0 },
      },
    );
    const temp = `${session.file}.tmp-${n}`;
    writeFileSync(temp, JSON.stringify(document, null, 2));
    renameSync(temp, session.file);
  },
};
