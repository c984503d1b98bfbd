// What the contract subjects of the OpenCode family (OpenCode, Kilo) share: a turn appended to a
// database the way these agents commit one (message and part rows, in the log), and WAL mode.
import { imageAfterSync } from '../opencodeWal';

/** The family's databases are in WAL mode (header bytes 18–19 are 2): their writes, `import`'s too, go to the log. */
export function inWalMode(image: Uint8Array): Uint8Array {
  image[18] = 2;
  image[19] = 2;
  return image;
}

export const sessionIdOf = (path: string): string => path.slice(path.lastIndexOf('#') + 1);
let turns = 0;

/** `image` with one more prompt and an answer whose counts give a fill of `fillTokens`, rows as the agent writes them (`agent`: its default agent's name, OpenCode's `build`, Kilo's `code`). */
export function withTurn(image: Uint8Array, sessionId: string, fillTokens: number, agent = 'build'): Uint8Array {
  const now = Date.now();
  const n = String(++turns).padStart(4, '0');
  const userId = `msg_ffffffffff00contractUser${n}`;
  const answerId = `msg_ffffffffff01contractAnsw${n}`;
  const tokens = { total: fillTokens + 12, input: 100, output: 12, reasoning: 0, cache: { write: 0, read: fillTokens - 100 } };
  const user = { role: 'user', time: { created: now }, agent, model: { providerID: 'fake', modelID: 'fake-model' } };
  const answer = {
    parentID: userId,
    role: 'assistant',
    mode: agent,
    agent,
    cost: 0,
    tokens,
    modelID: 'fake-model',
    providerID: 'fake',
    time: { created: now + 1, completed: now + 2 },
    finish: 'stop',
  };
  const rows = [
    [userId, user, [[`prt_ffffffffff00contractPart${n}a`, { type: 'text', text: 'One more thing: add a test for the retry.' }]]],
    [
      answerId,
      answer,
      [
        [`prt_ffffffffff01contractPart${n}b`, { type: 'text', text: 'Added.' }],
        [`prt_ffffffffff01contractPart${n}c`, { type: 'step-finish', reason: 'stop', tokens, cost: 0 }],
      ],
    ],
  ] as const;
  let after = image;
  for (const [id, data, parts] of rows) {
    after = imageAfterSync(after, 'INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)', [
      id,
      sessionId,
      now,
      now,
      JSON.stringify(data),
    ]);
    for (const [partId, part] of parts)
      after = imageAfterSync(after, 'INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)', [
        partId,
        id,
        sessionId,
        now,
        now,
        JSON.stringify(part),
      ]);
  }
  return after;
}
