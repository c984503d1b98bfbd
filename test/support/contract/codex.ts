// Codex CLI for the adapter contract: its recorded and published rollouts, the last response's
// prompt size read straight from its token_count events, and a turn appended as Codex writes one.
import { appendFileSync } from 'node:fs';
import { codexFixtures } from '../codexFixtures';
import type { ContractSubject, ScratchSession } from './subject';
import { copyInto, count, jsonLines, record } from './lines';

const where = (codexHome: string) => ({ homes: { codex: [codexHome] } });

export const codexSubject: ContractSubject = {
  sessions: () =>
    codexFixtures().flatMap((fixture) =>
      fixture.rollouts.map((path) => ({ name: `${fixture.name}/${path.split('/').at(-1)}`, where: where(fixture.codexHome), path })),
    ),
  // Codex counts the context as the last response's input plus its output.
  lastFillTokens(path) {
    let last: number | null = null;
    for (const line of jsonLines(path)) {
      if (line.type === 'compacted') last = null;
      const payload = record(line.payload);
      if (line.type !== 'event_msg' || payload?.type !== 'token_count') continue;
      const usage = record(record(payload.info)?.last_token_usage);
      if (count(usage?.input_tokens) > 0) last = count(usage?.input_tokens) + count(usage?.output_tokens);
    }
    return last;
  },
  scratch(dir) {
    // A published session with tool output worth compacting (the recorded ones are small).
    const source = codexFixtures().find((fixture) => fixture.name === 'public/codemie-0.77.0');
    if (source === undefined) throw new Error('no public/codemie-0.77.0 fixture under test/fixtures/codex');
    const path = copyInto(dir, source.codexHome, source.rollouts[0]!);
    const meta = record(jsonLines(path)[0]?.payload);
    return { where: where(dir), workspace: typeof meta?.cwd === 'string' ? meta.cwd : '/', path, file: path };
  },
  appendTurn(session: ScratchSession, fillTokens) {
    const at = new Date().toISOString();
    const item = (payload: unknown) => JSON.stringify({ timestamp: at, type: 'response_item', payload });
    const lines = [
      item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'One more thing: add a test for the retry.' }] }),
      item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Added.' }] }),
      JSON.stringify({
        timestamp: at,
        type: 'event_msg',
        payload: {
          type: 'token_count',
          info: {
            last_token_usage: {
              input_tokens: fillTokens - 12,
              cached_input_tokens: fillTokens - 112,
              output_tokens: 12,
              reasoning_output_tokens: 0,
              total_tokens: fillTokens,
            },
            model_context_window: 258_400,
          },
        },
      }),
    ];
    appendFileSync(session.file, `${lines.join('\n')}\n`);
  },
};
