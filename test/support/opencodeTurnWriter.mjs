// OpenCode's writer, as far as a follower can tell: one connection held open on the database in WAL
// mode (OpenCode's own setting), appending a turn as OpenCode records one — the user message and its
// text part, then the assistant message, its step-start, text and step-finish parts, then the
// message's finished tokens and the session's time — each write committed on its own, so the rows
// land in the log and stay there (the connection is never closed between turns: no checkpoint on close).
// Run with a Node that has node:sqlite (≥ 22.13): `node opencodeTurnWriter.mjs <db> <session id>`.
// Reads one JSON line per turn on stdin ({ turn, input, cacheRead, output }), answers
// { turn, committedAt } (performance.timeOrigin + performance.now(), ms) once the last write committed.
import { DatabaseSync } from 'node:sqlite';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';

const [db, sessionId] = process.argv.slice(2);
const connection = new DatabaseSync(db);
connection.exec('PRAGMA journal_mode=WAL');
connection.exec('PRAGMA busy_timeout=5000');
const [session] = connection.prepare('SELECT * FROM session WHERE id = ?').all(sessionId);
if (session === undefined) throw new Error(`no session ${sessionId}`);
const last = connection.prepare('SELECT id, data FROM message WHERE session_id = ? ORDER BY id DESC LIMIT 1').all(sessionId)[0];
const lastData = JSON.parse(String(last.data));
const insertMessage = connection.prepare('INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)');
const insertPart = connection.prepare('INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)');
const updateMessage = connection.prepare('UPDATE message SET data = ?, time_updated = ? WHERE id = ?');
const touchSession = connection.prepare('UPDATE session SET time_updated = ? WHERE id = ?');

/** Ids after every recorded one (OpenCode's ids ascend with time): `msg_` + `~` sorts after the base62 digits. */
const idOf = (prefix, turn, what) => `${prefix}_~${String(turn).padStart(4, '0')}${what}`;

function appendTurn({ turn, input, cacheRead, output }) {
  let now = Date.now();
  const user = idOf('msg', turn, 'a');
  const assistant = idOf('msg', turn, 'b');
  insertMessage.run(
    user,
    sessionId,
    now,
    now,
    JSON.stringify({ role: 'user', time: { created: now }, agent: 'build', model: { providerID: lastData.providerID, modelID: lastData.modelID } }),
  );
  insertPart.run(idOf('prt', turn, 'a'), user, sessionId, now, now, JSON.stringify({ type: 'text', text: `Appended question ${turn}: what changed?` }));
  const running = {
    parentID: user,
    role: 'assistant',
    mode: 'build',
    agent: 'build',
    path: lastData.path,
    cost: 0,
    tokens: { total: 0, input: 0, output: 0, reasoning: 0, cache: { write: 0, read: 0 } },
    modelID: lastData.modelID,
    providerID: lastData.providerID,
    time: { created: now },
  };
  insertMessage.run(assistant, sessionId, now, now, JSON.stringify(running));
  insertPart.run(idOf('prt', turn, 'b'), assistant, sessionId, now, now, JSON.stringify({ type: 'step-start' }));
  const tokens = { total: input + cacheRead + output, input, output, reasoning: 0, cache: { write: 0, read: cacheRead } };
  insertPart.run(
    idOf('prt', turn, 'c'),
    assistant,
    sessionId,
    now,
    now,
    JSON.stringify({ type: 'text', text: `Appended answer ${turn}: `.padEnd(400, 'x'), time: { start: now, end: now } }),
  );
  insertPart.run(idOf('prt', turn, 'd'), assistant, sessionId, now, now, JSON.stringify({ reason: 'stop', type: 'step-finish', tokens, cost: 0 }));
  now = Date.now();
  updateMessage.run(JSON.stringify({ ...running, tokens, time: { created: running.time.created, completed: now }, finish: 'stop' }), now, assistant);
  touchSession.run(now, sessionId);
}

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const request = JSON.parse(line);
  appendTurn(request);
  process.stdout.write(`${JSON.stringify({ turn: request.turn, committedAt: performance.timeOrigin + performance.now() })}\n`);
});
lines.on('close', () => connection.close());
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
