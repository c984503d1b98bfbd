// Entry of `dist/statusline.js`: the status line without the rest of the CLI, because Claude Code
// starts it on every redraw and the full CLI bundle (engine, zod, tokenizer) takes longer to load.
import { readStdin } from './hookInput';
import { NEUTRAL, resolveStatusLine } from './statusline';
import { stdout } from './stdio';

// Stdin over its cap (see hookInput.ts) is not Claude Code's: the neutral line, at once.
readStdin().then(
  async (stdin) => stdout.write(`${await resolveStatusLine(stdin, process.env, { cost: process.argv.includes('--cost') })}\n`),
  () => stdout.write(`${NEUTRAL}\n`),
);
