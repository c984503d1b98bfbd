// A resumed Gemini CLI session: 0.61 writes a new header and the history again as a `$set.messages`
// snapshot whose replies carry no `tokens`. Until the resumed turn's reply lands, the fill is still the
// last reply's recorded usage, not lost: the Connect hook reads the chat at exactly that moment (its
// BeforeAgent runs after the snapshot, before the turn) to tell whether Gemini compresses on this turn.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, it } from 'node:test';
import { readChat } from '../../../../src/sessions/gemini/chatState';
import { tempDir } from '../../../support/tempDir';
import { chatPath, gemini, HEADER, lines, sessionContext, set, user } from './syntheticChat';

const withoutTokens = (record: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(record).filter(([key]) => key !== 'tokens' && key !== 'thoughts' && key !== 'model'));

describe('a resumed Gemini chat', () => {
  const history = [sessionContext(), user('u1', 'Say hello.'), gemini('g1', 'Hello.', 11_590), user('u2', 'x'.repeat(113_000)), gemini('g2', 'Noted.', 40_149)];

  it('keeps the last reply’s recorded usage when the resume writes the history again without it', async () => {
    const path = chatPath(tempDir('cl-gemini-resume-'));
    mkdirSync(dirname(path), { recursive: true });
    // As 0.61 wrote it: the first run's lines, then the resumed run's header and snapshots.
    writeFileSync(
      path,
      lines([
        HEADER,
        ...history,
        HEADER,
        set({ messages: [sessionContext()] }),
        set({ sessionId: HEADER.sessionId }),
        set({ messages: history.map(withoutTokens) }),
      ]),
    );
    const read = await readChat(path, false);
    assert.ok(read.ok);
    const fill = read.value.state.fill({ compressionThreshold: 0.02 });
    assert.equal(fill.usedTokens, 40_149);
  });

  it('has no usage to keep after a compression’s snapshot (its messages are new)', async () => {
    const path = chatPath(tempDir('cl-gemini-resume-'));
    mkdirSync(dirname(path), { recursive: true });
    const compressed = [
      sessionContext(),
      user('s1', '<state_snapshot>\n<overall_goal>sync</overall_goal>\n</state_snapshot>'),
      { id: 'm1', timestamp: HEADER.startTime, type: 'gemini', content: 'Got it.' },
    ];
    writeFileSync(path, lines([HEADER, ...history, set({ messages: compressed })]));
    const read = await readChat(path, false);
    assert.ok(read.ok);
    assert.notEqual(read.value.state.fill({ compressionThreshold: 0.02 }).usedTokens, 40_149);
  });
});
