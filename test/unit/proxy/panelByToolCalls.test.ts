// The panel's keep/drop reach a request that names no session (OpenCode's Chat Completions, Gemini
// CLI): the panel's file for the session lists its tool call ids and the proxy applies the say of
// the one session holding the request's calls. Two sessions holding them: nothing is applied and
// the event says why; a request whose calls no file holds gets the proxy's own options.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { writePanelInstructions, type PanelSay } from '../../../src/proxy/panelInstructions';
import { DEFAULT_LIVE_OPTIONS, LiveRewriter } from '../../../src/proxy/rewrite';
import { joinedPieces } from '../../support/proxyConversation';
import { tempDir } from '../../support/tempDir';

const OPENCODE = 'ses_4a1b2c3d4e5fFgHiJkLmNoPq';
const COPY = 'ses_4a1b2c3d4e5fZzZzZzZzZzZz';
const PATH = '/v1/chat/completions';

interface ChatMessage {
  role: string;
  content: string | null;
  tool_call_id?: string;
  tool_calls?: unknown[];
}

/** An OpenCode-like request: `reads` file reads, each answered, with its tools offered; no session named anywhere. */
function chat(reads: number, prefix = 'call_k7'): { messages: ChatMessage[] } & Record<string, unknown> {
  const messages: ChatMessage[] = [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Check the tables.' },
  ];
  for (let at = 1; at <= reads; at++) {
    const id = `${prefix}${String(at).padStart(4, '0')}`;
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name: 'read', arguments: JSON.stringify({ filePath: `/p/f${at}.ts` }) } }],
    });
    messages.push({ role: 'tool', tool_call_id: id, content: `// file ${at}\n${'const value = compute();\n'.repeat(40)}` });
  }
  return { model: 'gpt-5-mini', stream: true, tools: [{ type: 'function', function: { name: 'read', parameters: {} } }], messages };
}

const ids = (reads: number): string[] => Array.from({ length: reads }, (_, at) => `call_k7${String(at + 1).padStart(4, '0')}`);
const outputOf = (body: Buffer, id: string): string =>
  String((JSON.parse(body.toString('utf8')) as { messages: ChatMessage[] }).messages.find((message) => message.tool_call_id === id)?.content);

function setUp(): { live: LiveRewriter; say: (session: string, said: PanelSay) => Promise<void> } {
  const root = tempDir('cl-proxy-bycalls-');
  const panel = join(root, 'panel');
  return {
    live: new LiveRewriter({ ...DEFAULT_LIVE_OPTIONS, budgetMs: 5_000 }, { recall: join(root, 'recall'), requests: join(root, 'requests'), panel }),
    say: async (session, said) => assert.ok((await writePanelInstructions(panel, session, said)).ok),
  };
}

describe("the panel's keep/drop for a request that names no session", () => {
  it('a drop in the panel of the session holding the calls is a stub from the next request on, below the trigger', async () => {
    const { live, say } = setUp();
    await say(OPENCODE, { drop: ['call_k70002'], keep: [], toolCalls: ids(3) });
    // The request carries a newer call than the panel has read: its older calls still place it.
    const body = Buffer.from(JSON.stringify(chat(4)));
    const first = await live.rewrite(body, 'openai-chat', PATH);
    assert.equal(first.action, 'edited', first.reason ?? '');
    assert.equal(first.agentSession, null, 'the request still names no session');
    assert.match(first.reason ?? '', /1 dropped by you/);
    const sent = joinedPieces(first.pieces);
    assert.match(outputOf(sent, 'call_k70002'), /^\[DROPPED\] read .*output/);
    assert.match(outputOf(sent, 'call_k70003'), /^\/\/ file 3/, 'the rest whole');
    // Taken back in the panel: the next request carries the output whole again.
    await say(OPENCODE, { drop: [], keep: ['call_k70002'], toolCalls: ids(4) });
    const next = await live.rewrite(Buffer.from(JSON.stringify(chat(5))), 'openai-chat', PATH);
    assert.match(next.reason ?? '', /1 given back whole by your choice/);
    assert.match(outputOf(joinedPieces(next.pieces), 'call_k70002'), /^\/\/ file 2/);
  });

  it('two sessions holding the calls: neither say is applied, and the event says so', async () => {
    const { live, say } = setUp();
    await say(OPENCODE, { drop: ['call_k70002'], toolCalls: ids(3) });
    await say(COPY, { drop: [], toolCalls: ids(3) });
    const result = await live.rewrite(Buffer.from(JSON.stringify(chat(3))), 'openai-chat', PATH);
    assert.equal(result.action, 'unchanged');
    assert.match(result.reason ?? '', new RegExp(`not applied: .*in 2 sessions \\(${OPENCODE}, ${COPY}\\)`));
    assert.match(outputOf(joinedPieces(result.pieces), 'call_k70002'), /^\/\/ file 2/);
  });

  it("another conversation's calls are in no file: the proxy's own options, nothing dropped", async () => {
    const { live, say } = setUp();
    await say(OPENCODE, { drop: ['call_k70002'], toolCalls: ids(3) });
    const other = chat(3, 'call_zz');
    const result = await live.rewrite(Buffer.from(JSON.stringify(other)), 'openai-chat', PATH);
    assert.equal(result.action, 'unchanged', result.reason ?? '');
    assert.equal(result.reason, null);
  });
});
