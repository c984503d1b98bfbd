import Anthropic from '@anthropic-ai/sdk';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { agent, type FakeAnthropic, reply, startFakeAnthropic, text, thinking, toolResultText, toolUse, type TurnContext } from '../../support/fake-anthropic';
import { tempDir } from '../../support/tempDir';

// Main calls carry the agent's tools; a request without them is a side call.
const TOOLS = [
  { name: 'Read', description: 'Reads a file', input_schema: { type: 'object' as const, properties: { file_path: { type: 'string' } } } },
  { name: 'Bash', description: 'Runs a command', input_schema: { type: 'object' as const, properties: { command: { type: 'string' } } } },
];
const MODEL = 'claude-sonnet-5-5';

describe('fake Anthropic API', () => {
  let server: FakeAnthropic;
  let client: Anthropic;
  const logFile = join(tempDir('fake-anthropic-'), 'requests.jsonl');

  before(async () => {
    server = await startFakeAnthropic({
      logFile,
      scenario: {
        turns: [
          () => reply(thinking('The user wants the file.'), text('Reading it.'), toolUse('Read', { file_path: '/work/a.ts' })),
          ({ toolResults }) => reply(text(`The file says: ${toolResults[0] ? toolResultText(toolResults[0]) : 'nothing'}`)),
          ({ lastUserText }) => reply(text(`You said: ${lastUserText}`)),
        ],
        side: () => reply(text('Fix retry bug')),
      },
    });
    client = new Anthropic({ apiKey: 'sk-ant-test-unit', baseURL: server.url, maxRetries: 0 });
  });
  after(() => server.stop());

  it('binds loopback only', () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('streams a tool_use turn and answers the tool_result, with growing cached usage', async () => {
    const first = await client.messages
      .stream({
        model: MODEL,
        max_tokens: 1000,
        tools: TOOLS,
        system: [{ type: 'text', text: 'You are a test.', cache_control: { type: 'ephemeral' } }],
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Read a.ts', cache_control: { type: 'ephemeral' } }] }],
      })
      .finalMessage();
    assert.deepEqual(
      first.content.map((block) => block.type),
      ['thinking', 'text', 'tool_use'],
    );
    assert.equal(first.stop_reason, 'tool_use');
    const call = first.content[2];
    assert.ok(call?.type === 'tool_use');
    assert.deepEqual(call.input, { file_path: '/work/a.ts' });
    assert.equal(first.usage.cache_read_input_tokens, 0);
    assert.ok((first.usage.cache_creation_input_tokens ?? 0) > 0);
    assert.ok(first.usage.output_tokens > 1, 'final output_tokens comes with message_delta');

    const second = await client.messages
      .stream({
        model: MODEL,
        max_tokens: 1000,
        tools: TOOLS,
        system: [{ type: 'text', text: 'You are a test.', cache_control: { type: 'ephemeral' } }],
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Read a.ts' }] },
          { role: 'assistant', content: first.content },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: call.id,
                content: 'export const a = 1;\n<system-reminder>noise</system-reminder>',
                cache_control: { type: 'ephemeral' },
              },
            ],
          },
        ],
      })
      .finalMessage();
    assert.deepEqual(second.content, [{ type: 'text', text: 'The file says: export const a = 1;' }]);
    assert.equal(second.stop_reason, 'end_turn');
    assert.ok((second.usage.cache_read_input_tokens ?? 0) > 0, 'the shared prefix is read from the simulated cache');
  });

  it('answers non-streaming calls with a JSON message', async () => {
    const message = await client.messages.create({ model: MODEL, max_tokens: 100, tools: TOOLS, messages: [{ role: 'user', content: 'hello there' }] });
    assert.equal(message.type, 'message');
    assert.deepEqual(message.content, [{ type: 'text', text: 'You said: hello there' }]);
    assert.ok(message.usage.input_tokens > 0);
  });

  it('answers side calls without consuming the script, and falls back once the script is done', async () => {
    const before = server.mainCalls;
    const title = await client.messages.create({ model: MODEL, max_tokens: 50, messages: [{ role: 'user', content: 'Title for this session?' }] });
    assert.deepEqual(title.content, [{ type: 'text', text: 'Fix retry bug' }]);
    assert.equal(server.mainCalls, before);
    const done = await client.messages.create({ model: MODEL, max_tokens: 50, tools: TOOLS, messages: [{ role: 'user', content: 'anything else?' }] });
    assert.deepEqual(done.content, [{ type: 'text', text: 'Done.' }]);
  });

  it('recognises the /compact summarisation request and keeps the focus text', async () => {
    const summary = await client.messages.create({
      model: MODEL,
      max_tokens: 500,
      tools: TOOLS,
      messages: [
        {
          role: 'user',
          content:
            'Your task is to create a detailed summary of the conversation so far.\n\nAdditional Instructions:\nfocus on the retry logic\n\nREMINDER: text only.',
        },
      ],
    });
    const block = summary.content[0];
    assert.ok(block?.type === 'text');
    assert.match(block.text, /<summary>[\s\S]*focus on the retry logic[\s\S]*<\/summary>/);
    assert.equal(server.requests.at(-1)?.kind, 'compact');
  });

  it('counts tokens and answers probes harmlessly', async () => {
    const count = await client.messages.countTokens({ model: MODEL, messages: [{ role: 'user', content: 'x'.repeat(400) }] });
    assert.ok(count.input_tokens >= 100);
    const probe = await fetch(server.url, { method: 'HEAD' });
    assert.equal(probe.status, 200);
  });

  it('logs every request, in memory and to the log file, without credentials', () => {
    const kinds = server.requests.map((request) => request.kind);
    assert.deepEqual(kinds, ['main', 'main', 'main', 'side', 'main', 'compact', 'count_tokens', 'other']);
    const lines = readFileSync(logFile, 'utf8').trim().split('\n');
    assert.equal(lines.length, server.requests.length);
    assert.doesNotMatch(readFileSync(logFile, 'utf8'), /sk-ant-test-unit/);
    const first = JSON.parse(lines[0] ?? '{}') as { body: { messages: unknown[] }; usage: { input_tokens: number } };
    assert.equal(first.body.messages.length, 1);
    assert.ok(first.usage.input_tokens >= 1);
  });

  it('reports a throwing turn as a 400 instead of moving on in the script', async () => {
    const broken = await startFakeAnthropic({
      scenario: {
        turns: [
          () => {
            throw new Error('script bug');
          },
        ],
      },
    });
    try {
      const brokenClient = new Anthropic({ apiKey: 'sk-ant-test-unit', baseURL: broken.url, maxRetries: 0 });
      await assert.rejects(
        brokenClient.messages.create({ model: MODEL, max_tokens: 10, tools: TOOLS, messages: [{ role: 'user', content: 'hi' }] }),
        /script bug/,
      );
      assert.deepEqual(
        broken.errors.map((error) => error.message),
        ['script bug'],
      );
    } finally {
      await broken.stop();
    }
  });
});

describe('fake Anthropic API: parallel tool calls and subagents', () => {
  let server: FakeAnthropic;
  let client: Anthropic;
  const AGENT_PROMPT = 'Read b.ts and c.ts and report what they export.';
  const seen: { main: TurnContext[]; subagent: TurnContext[] } = { main: [], subagent: [] };

  before(async () => {
    server = await startFakeAnthropic({
      scenario: {
        turns: [
          () =>
            reply(
              text('Reading three files at once.'),
              toolUse('Read', { file_path: '/w/a.ts' }),
              toolUse('Read', { file_path: '/w/b.ts' }),
              toolUse('Grep', { pattern: 'export' }),
            ),
          (context) => {
            seen.main.push(context);
            return reply(
              agent({ description: 'Survey b and c', prompt: AGENT_PROMPT, subagent_type: 'Explore', run_in_background: false }, [
                (sub) => {
                  seen.subagent.push(sub);
                  return reply(toolUse('Read', { file_path: '/w/b.ts' }), toolUse('Read', { file_path: '/w/c.ts' }));
                },
                (sub) => {
                  seen.subagent.push(sub);
                  return reply(text(`b and c export ${sub.calls.length} things.`));
                },
              ]),
            );
          },
          (context) => {
            seen.main.push(context);
            return reply(text('All done.'));
          },
        ],
      },
    });
    client = new Anthropic({ apiKey: 'sk-ant-test-unit', baseURL: server.url, maxRetries: 0 });
  });
  after(() => server.stop());

  const ask = (messages: Anthropic.MessageParam[], tools: Anthropic.Tool[] = TOOLS) =>
    client.messages.stream({ model: MODEL, max_tokens: 1000, tools, messages }).finalMessage();
  const toolUses = (message: Anthropic.Message) => message.content.filter((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use');

  it('streams several tool_use blocks in one response, each with its own id', async () => {
    const first = await ask([{ role: 'user', content: 'Look at a and b.' }]);
    const uses = toolUses(first);
    assert.deepEqual(
      uses.map((use) => use.name),
      ['Read', 'Read', 'Grep'],
    );
    assert.equal(new Set(uses.map((use) => use.id)).size, 3);
    assert.equal(first.stop_reason, 'tool_use');

    // Results sent in another order than the calls: the next turn still sees each with its call.
    const results = [...uses].reverse().map((use, index) => ({ type: 'tool_result' as const, tool_use_id: use.id, content: `result ${index}` }));
    const second = await ask([
      { role: 'user', content: 'Look at a and b.' },
      { role: 'assistant', content: first.content },
      { role: 'user', content: results },
    ]);
    const calls = seen.main[0]?.calls ?? [];
    assert.deepEqual(
      calls.map((call) => [call.name, call.result ? toolResultText(call.result) : null]),
      [
        ['Read', 'result 2'],
        ['Read', 'result 1'],
        ['Grep', 'result 0'],
      ],
    );
    assert.deepEqual(
      seen.main[0]?.toolResults.map((block) => block.tool_use_id),
      uses.map((use) => use.id).reverse(),
    );

    const call = toolUses(second)[0];
    assert.equal(call?.name, 'Agent');
    assert.deepEqual(
      call?.input,
      { description: 'Survey b and c', prompt: AGENT_PROMPT, subagent_type: 'Explore', run_in_background: false },
      'the script is not sent',
    );
  });

  it('answers the subagent conversation from the Agent call, without consuming the main script', async () => {
    // Claude Code opens a subagent conversation with reminders, then the prompt as its own block.
    const opening: Anthropic.MessageParam = {
      role: 'user',
      content: [
        { type: 'text', text: '<system-reminder>context</system-reminder>' },
        { type: 'text', text: AGENT_PROMPT },
      ],
    };
    const before = server.mainCalls;
    const first = await ask([opening], TOOLS.slice(0, 1));
    const reads = toolUses(first);
    assert.deepEqual(
      reads.map((use) => use.input),
      [{ file_path: '/w/b.ts' }, { file_path: '/w/c.ts' }],
    );
    const results = reads.map((use) => ({ type: 'tool_result' as const, tool_use_id: use.id, content: 'export const x = 1;' }));
    const last = await ask([opening, { role: 'assistant', content: first.content }, { role: 'user', content: results }], TOOLS.slice(0, 1));
    assert.deepEqual(last.content, [{ type: 'text', text: 'b and c export 2 things.' }]);
    assert.deepEqual(
      seen.subagent.map((context) => context.index),
      [0, 1],
    );
    assert.equal(server.mainCalls, before);
    assert.deepEqual(
      server.requests.slice(-2).map((request) => request.kind),
      ['subagent', 'subagent'],
    );

    // A further subagent call past its script gets the generic closing text.
    const extra = await ask([
      opening,
      { role: 'assistant', content: first.content },
      { role: 'user', content: results },
      { role: 'assistant', content: last.content },
      { role: 'user', content: 'and?' },
    ]);
    assert.deepEqual(extra.content, [{ type: 'text', text: 'Done.' }]);
  });

  it('goes on with the main script once the agent has reported', async () => {
    const done = await ask([
      { role: 'user', content: 'Look at a and b.' },
      { role: 'user', content: 'agent result' },
    ]);
    assert.deepEqual(done.content, [{ type: 'text', text: 'All done.' }]);
    assert.equal(seen.main.length, 2);
    assert.deepEqual(
      server.requests.map((request) => request.kind),
      ['main', 'main', 'subagent', 'subagent', 'subagent', 'main'],
    );
  });
});
