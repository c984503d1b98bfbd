// `[features] hooks = true` in a project's `.codex/config.toml`, which Codex needs before it runs any
// hook. Text in, text out, by lines (no TOML rewriting): Connect adds one marked line to the
// person's `[features]` table, or a marked table at the end of the file; Disconnect removes exactly
// that, so the person's file gets its bytes back. Hooks the person turned off (`hooks = false`) or
// features written in a form we do not edit line-wise are refused with what to do.
import type { TextEdit } from '../common/connectFiles';

const MARK = '# added by Context Lens Connect';
export const HOOKS_LINE = `hooks = true ${MARK}`;
/** What Connect appends when the file has no `[features]` table. */
const BLOCK = `[features]\n${HOOKS_LINE}\n`;

const HEADER = /^\s*\[\s*features\s*\]\s*(?:#.*)?$/;
const TABLE = /^\s*\[/;
const HOOKS_KEY = /^\s*hooks\s*=\s*(\S+)/;

/** Where the `[features]` table is and what its `hooks` key says. */
function featuresOf(lines: readonly string[]): { header: number; hooks: string | null } | null {
  const header = lines.findIndex((line) => HEADER.test(line));
  if (header === -1) return null;
  for (let at = header + 1; at < lines.length && !TABLE.test(lines[at] ?? ''); at++) {
    const match = HOOKS_KEY.exec(lines[at] ?? '');
    if (match) return { header, hooks: match[1] ?? null };
  }
  return { header, hooks: null };
}

/** Whether the text turns Codex's hooks on (ours or the person's own line). */
export function hooksEnabled(text: string | null): boolean {
  if (text === null) return false;
  const found = featuresOf(text.split('\n'));
  return found?.hooks === 'true' || /^\s*features\.hooks\s*=\s*true\b/m.test(text);
}

export function enableHooks(text: string | null, file: string): TextEdit {
  if (text === null || text.trim() === '') return { ok: true, text: text === null ? BLOCK : `${text}${BLOCK}` };
  if (hooksEnabled(text)) return { ok: true, text };
  const lines = text.split('\n');
  const found = featuresOf(lines);
  if (found?.hooks === 'false' || /^\s*features\.hooks\s*=/m.test(text))
    return {
      ok: false,
      error: `${file} was left alone: it turns Codex's hooks off (features.hooks). Set it to true yourself if you want them, then connect again.`,
    };
  if (found === null && /^\s*features\s*=/m.test(text))
    return { ok: false, error: `${file} was left alone: its "features" is an inline table. Add hooks = true to it, then connect again.` };
  if (found === null) return { ok: true, text: `${text}\n${BLOCK}` };
  const eol = lines[found.header]?.endsWith('\r') ? '\r' : '';
  return { ok: true, text: [...lines.slice(0, found.header + 1), `${HOOKS_LINE}${eol}`, ...lines.slice(found.header + 1)].join('\n') };
}

/** Removes what enableHooks added, and nothing else. */
export function disableHooks(text: string | null): TextEdit {
  if (text === null) return { ok: true, text: '' };
  // A blank file (or none) took the block alone; any other text got it after one line break.
  if (text.endsWith(BLOCK) && text.slice(0, -BLOCK.length).trim() === '') return { ok: true, text: text.slice(0, -BLOCK.length) };
  if (text.endsWith(`\n${BLOCK}`)) return { ok: true, text: text.slice(0, -BLOCK.length - 1) };
  const lines = text.split('\n');
  const ours = lines.findIndex((line, at) => line.replace(/\r$/, '') === HOOKS_LINE && HEADER.test(lines[at - 1] ?? ''));
  return ours === -1 ? { ok: true, text } : { ok: true, text: [...lines.slice(0, ours), ...lines.slice(ours + 1)].join('\n') };
}
