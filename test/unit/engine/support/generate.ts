// Realistic Claude Code–shaped conversations for tests and benchmarks: repeated Reads of the same
// files, Bash and test runs, Greps, edits, long assistant texts with the occasional hedge. Seeded,
// so a failing property or a benchmark figure can be reproduced.
import type { AnthropicMessage, MessageBlock } from '../../../../src/engine/model';

export interface GenerateOptions {
  /** Approximate total characters of tool output and text (≈ 4 chars per token). */
  targetChars: number;
  seed?: number;
  files?: number;
  /** Leave the last tool call without a result (an in-flight call). */
  inFlight?: boolean;
  /** Tool rounds between two user messages (default 25). */
  turnEvery?: number;
  /** Scales tool output sizes (default 1): smaller outputs give more items for the same tokens. */
  outputScale?: number;
}

/** Small deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  'the function returns value config parser token session window compact summary result file module export import async await error handler request response cache index buffer stream'.split(
    ' ',
  );

function sentence(random: () => number, words = 12): string {
  const parts = Array.from({ length: words }, () => WORDS[Math.floor(random() * WORDS.length)] ?? 'x');
  return `${parts.join(' ')}.`;
}

function codeLines(random: () => number, lines: number, file: string): string {
  return Array.from(
    { length: lines },
    (_, index) => `${String(index + 1).padStart(5)}\t  const ${file.replace(/\W/g, '_')}_${index} = ${sentence(random, 6)}`,
  ).join('\n');
}

let useCounter = 0;

export function generateMessages(options: GenerateOptions): { system: string; tools: Record<string, unknown>[]; messages: AnthropicMessage[] } {
  const random = rng(options.seed ?? 1);
  const files = Array.from({ length: options.files ?? 12 }, (_, index) => `/work/project/src/module${index}/file${index}.ts`);
  const messages: AnthropicMessage[] = [
    {
      role: 'user',
      content: [{ type: 'text', text: 'Refactor the session parser for speed. Never modify config/prod.yaml. TODO: keep the public API stable.' }],
    },
  ];
  const turnEvery = options.turnEvery ?? 25;
  const lines = (base: number, spread: number): number => Math.max(1, Math.round((base + Math.floor(random() * spread)) * (options.outputScale ?? 1)));
  let chars = 0;
  let round = 0;
  while (chars < options.targetChars) {
    round += 1;
    const file = files[Math.floor(random() * files.length)] ?? '/x.ts';
    const pick = random();
    const id = `toolu_${++useCounter}`;
    let use: MessageBlock;
    let output: string;
    let isError = false;
    if (pick < 0.45) {
      use = { type: 'tool_use', id, name: 'Read', input: { file_path: file } };
      output = codeLines(random, lines(80, 200), file);
    } else if (pick < 0.6) {
      use = { type: 'tool_use', id, name: 'Bash', input: { command: random() < 0.5 ? 'npm test' : `ls -la ${file.replace(/\/[^/]+$/, '')}` } };
      isError = random() < 0.3;
      output = `${Array.from({ length: lines(40, 120) }, () => sentence(random, 8)).join('\n')}\n${isError ? 'Error: expected 3 but got 4\n    at parse (src/parser.ts:42)' : 'ok 12 tests passed'}`;
    } else if (pick < 0.75) {
      use = { type: 'tool_use', id, name: 'Grep', input: { pattern: WORDS[Math.floor(random() * 6)] ?? 'x', path: '/work/project/src' } };
      output = Array.from({ length: lines(20, 60) }, () => `${file}:${Math.floor(random() * 300)}: ${sentence(random, 6)}`).join('\n');
    } else if (pick < 0.85) {
      use = { type: 'tool_use', id, name: 'Edit', input: { file_path: file, old_string: 'a', new_string: 'b' } };
      output = `The file ${file} has been updated.`;
    } else {
      use = { type: 'tool_use', id, name: 'Glob', input: { pattern: '**/*.ts' } };
      output = files.join('\n');
    }
    const hedge = random() < 0.1 ? ' Wait, actually, let me reconsider: perhaps the cache is stale.' : '';
    const decision = random() < 0.2 ? ' I decided to keep the streaming reader because it avoids loading the file.' : '';
    const text = `${Array.from({ length: 2 + Math.floor(random() * 6) }, () => sentence(random)).join(' ')}${hedge}${decision}`;
    messages.push({ role: 'assistant', content: [{ type: 'text', text }, use] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: output, ...(isError ? { is_error: true } : {}) }] });
    chars += text.length + output.length;
    if (round % turnEvery === 0)
      messages.push(
        { role: 'assistant', content: [{ type: 'text', text: 'Progress so far is good. Next I will look at the tokenizer.' }] },
        { role: 'user', content: [{ type: 'text', text: 'Continue. Do not touch the CLI.' }] },
      );
  }
  if (options.inFlight)
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${++useCounter}`, name: 'Read', input: { file_path: files[0] } }] });
  return {
    system: 'You are a coding agent. Follow the user instructions carefully.',
    tools: ['Read', 'Write', 'Edit', 'Bash', 'Grep', 'Glob'].map((name) => ({ name, description: `${name} tool`, input_schema: { type: 'object' } })),
    messages,
  };
}
