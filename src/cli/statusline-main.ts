// Entry of `dist/statusline.js`: the status line without the rest of the CLI, because Claude Code
// starts it on every redraw and the full CLI bundle (engine, zod, tokenizer) takes longer to load.
import { readStdin } from './hookInput';
import { NEUTRAL, statusLine } from './statusline';

readStdin().then(
  (stdin) => process.stdout.write(`${statusLine(stdin, process.env)}\n`),
  () => process.stdout.write(`${NEUTRAL}\n`),
);
