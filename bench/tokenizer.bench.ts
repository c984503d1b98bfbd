// Tokenizer benchmark: prints figures, asserts nothing. Run with `npx tsx bench/tokenizer.bench.ts`
// (`--kb 64` for another size). Issue 12: counting must cost O(length) whatever the text; the
// target is every worst case within 3× of ordinary text of the same size. Each text is counted
// once, after a warm-up on other text (gpt-tokenizer remembers merged pieces, so a second pass
// over the same text would say little).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { O200kTokenizer } from '../src/engine/tokens/tokenizer';
import { worstCases } from '../test/unit/engine/tokens/worstCases';

const kbFlag = process.argv.indexOf('--kb');
const kb = kbFlag > 0 ? Number(process.argv[kbFlag + 1]) : 256;
const TARGET_RATIO = 3;
/** The unbounded library on this much of each worst case shows the cost before the fix (it grows with the square). */
const UNBOUNDED_KB = 16;

/** This repository's own TypeScript: code and comments, the ordinary text of a coding session. */
function ordinaryText(folder: string, chars: number): string {
  const root = join(import.meta.dirname, '..', folder);
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts')).sort();
  let text = '';
  for (const file of files) {
    if (text.length >= chars) break;
    text += readFileSync(join(root, file), 'utf8');
  }
  return text.slice(0, chars);
}

function timed<T>(body: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = body();
  return { value, ms: performance.now() - started };
}

const megabytesPerSecond = (chars: number, ms: number) => chars / 1e6 / (ms / 1e3);

const tokenizer = new O200kTokenizer();
tokenizer.count(ordinaryText('test', kb * 1024)); // loads the tables and warms the JIT up
const ordinary = ordinaryText('src', kb * 1024);
const base = timed(() => tokenizer.measure(ordinary));
const baseRate = megabytesPerSecond(ordinary.length, base.ms);
console.log(`tokenizer: ${tokenizer.name}, texts of ${kb} KB (UTF-16 units), each counted once`);
console.log(`ordinary text (src/**/*.ts): ${baseRate.toFixed(2)} MB/s, ${base.ms.toFixed(0)} ms, ${base.value.tokens} tokens`);

let worst = 0;
for (const { name, text } of worstCases(kb)) {
  const { value, ms } = timed(() => tokenizer.measure(text));
  const rate = megabytesPerSecond(text.length, ms);
  const ratio = baseRate / rate;
  worst = Math.max(worst, ratio);
  const flags = `${value.cuts} cuts${value.estimatedChars > 0 ? `, ${value.estimatedChars} chars estimated` : ''}`;
  const sample = text.slice(0, UNBOUNDED_KB * 1024);
  const unbounded = timed(() => countTokens(sample, { allowedSpecial: new Set<string>(), disallowedSpecial: new Set<string>() }));
  console.log(
    `${name}: ${rate.toFixed(2)} MB/s, ${ms.toFixed(0)} ms, ${value.tokens} tokens (${flags}), ${ratio.toFixed(2)}× ordinary` +
      ` | unbounded library on ${UNBOUNDED_KB} KB: ${megabytesPerSecond(sample.length, unbounded.ms).toFixed(3)} MB/s`,
  );
}
console.log(`worst case ${worst.toFixed(2)}× ordinary text (target ≤ ${TARGET_RATIO}×): ${worst <= TARGET_RATIO ? 'met' : 'NOT met'}`);
