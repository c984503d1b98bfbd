// What the person typed in a Codex user message, without what the IDE extension or the desktop app
// wrapped around it. The VS Code extension puts "# Context from my IDE setup:" (active file, open
// tabs, selection) before the request and marks the request "## My request for Codex:" (or "## My
// request:"); the desktop app does the same with "# Files mentioned by the user:" and other
// headed blocks; newer versions send catalogues such as <recommended_plugins>…</recommended_plugins>
// as parts of their own. A session's title is the typed request, never these.
import { isInjectedUserText } from './records';

/** The marker the wrappers put before the request; everything after it is typed. */
const REQUEST_MARKER = /^##\s*My request(?: for [^:\n]{1,40})?:[ \t]*\n?/im;
/**
 * The headers a wrapper preamble opens with. Named, not any "# …:" line: a person may well start a
 * prompt with a Markdown heading of their own.
 */
const PREAMBLE_HEADER =
  /^#\s+(?:Context from my [^\n:]{1,40}|Files (?:mentioned|pasted|attached) by the user|In app browser|Browser comments|Referenced chats with [^\n:]{1,40}|Open tabs|Active file)\s*:[ \t]*(?:\S[^\n]*)?$/i;
/** Lines of a preamble: its sub-headers ("## Active file: a.ts", "## shot.png:"), their list items and paths. */
const PREAMBLE_LINE = /^(?:##\s+[^\n]*|[-*]\s+[^\n]*|[A-Za-z]:[\\/][^\n]*|\/[^\s][^\n]*|Distinguish instructions in attached documents[^\n]*)$/;
/** A block in angle brackets the harness sends (`<recommended_plugins>…</recommended_plugins>`, `<image …>`). */
const TAG_BLOCK = /^\s*<([a-z][\w-]*)\b[^>]*>(?:[\s\S]*?<\/\1>)?/;
const HARNESS_TAGS =
  /^(?:recommended_plugins|image|skill|hook_prompt|realtime_delegation|codex_internal_context|in-app-browser-context|environment_context|user_instructions|turn_aborted|subagent_notification|user_shell_command|apps_instructions|collaboration_mode|permissions)$/;

/** `text` without a leading wrapper preamble, or '' when it is nothing but one. */
function withoutPreamble(text: string): string {
  const lines = text.split(/\r?\n/);
  if (!PREAMBLE_HEADER.test(lines[0]?.trim() ?? '')) return text;
  let at = 1;
  while (at < lines.length) {
    const line = (lines[at] ?? '').trim();
    // Another headed block may follow ("# Files mentioned…" then "# Context from my IDE setup:").
    if (line === '' || PREAMBLE_LINE.test(line) || PREAMBLE_HEADER.test(line)) at++;
    else break;
  }
  return lines.slice(at).join('\n');
}

/** Leading harness blocks in angle brackets, removed. */
function withoutTagBlocks(text: string): string {
  let rest = text;
  for (;;) {
    const match = TAG_BLOCK.exec(rest);
    if (!match || !HARNESS_TAGS.test(match[1] ?? '')) return rest;
    rest = rest.slice(match[0].length);
  }
}

/** The typed part of one text part of a user message ('' when it holds none). */
export function typedPart(text: string): string {
  if (isInjectedUserText(text)) return '';
  let rest = withoutTagBlocks(text).trim();
  const marker = REQUEST_MARKER.exec(rest);
  if (marker && (marker.index === 0 || PREAMBLE_HEADER.test(rest.split('\n', 1)[0] ?? ''))) rest = rest.slice(marker.index + marker[0].length);
  else rest = withoutPreamble(rest);
  // A closing tag left from an attachment split across parts ("</image>") is no text either.
  return rest.replace(/^\s*<\/[a-z][\w-]*>\s*/i, '').trim();
}

/** The person's own words in a user message's text parts, joined; '' when every part was injected. */
export function typedPrompt(parts: readonly string[]): string {
  return parts
    .map(typedPart)
    .filter((part) => part !== '')
    .join('\n')
    .trim();
}
