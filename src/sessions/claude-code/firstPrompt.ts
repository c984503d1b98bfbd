// The first thing a person typed in a session, for its title. Claude Code writes much into `user`
// records that nobody typed: IDE context blocks before the request (`<ide_opened_file>`,
// `<ide_selection>`), slash commands with their caveat, output and expanded prompt, reminders,
// tool results, summaries. These are skipped; a command is remembered as the title of last resort.
import { contentBlocks, isSidechain, messageOf, parentOf, str, uuidOf, type RawRecord } from './records';

/** `<name …>…</name>` at the start of a text. Harness tags have a `-` or `_` in their name; HTML tags never do. */
const LEADING_TAG = /^\s*<([a-z]+[-_][\w-]*)\b[^>]*>/i;
const COMMAND_NAME = /<command-name>\s*([^<]*?)\s*<\/command-name>/;
const COMMAND_ARGS = /<command-args>\s*([^<]*?)\s*<\/command-args>/;

export class FirstPrompt {
  /** The first prompt typed on this side, once found. */
  typed: string | null = null;
  /** The first slash command (`/init`, with its arguments), for a session where nothing was typed. */
  command: string | null = null;
  /** Records holding a slash command: the user record that follows one is its expanded prompt. */
  private readonly commands = new Set<string>();

  /** `sidechain`: a subagent's file, whose prompt is its only title. */
  constructor(private readonly sidechain: boolean) {}

  /** Feeds records in file order; true once the typed prompt is known. */
  observe(record: RawRecord): boolean {
    if (this.typed !== null) return true;
    if (record.type !== 'user' || isSidechain(record) !== this.sidechain || record.isMeta === true || record.isCompactSummary === true) return false;
    const blocks = contentBlocks(messageOf(record));
    if (blocks.some((block) => block.type === 'tool_result')) return false;
    const parent = parentOf(record);
    // Older versions wrote a command's expanded prompt as an ordinary user record after it.
    const expansion = parent !== null && this.commands.has(parent);
    for (const block of blocks) {
      if (block.type !== 'text' || typeof block.text !== 'string') continue;
      const command = commandOf(block.text);
      if (command !== null) {
        this.command ??= command;
        const uuid = uuidOf(record);
        if (uuid !== null) this.commands.add(uuid);
        return false;
      }
      const typed = withoutHarness(block.text);
      if (typed !== '' && !expansion && !typed.startsWith('[Request interrupted')) {
        this.typed = typed;
        return true;
      }
    }
    return false;
  }
}

/** `/name args` of a slash-command record, or null. */
function commandOf(text: string): string | null {
  const name = str(COMMAND_NAME.exec(text)?.[1] ?? null);
  if (name === null || name === '') return null;
  const args = COMMAND_ARGS.exec(text)?.[1] ?? '';
  const command = name.startsWith('/') ? name : `/${name}`;
  return args === '' ? command : `${command} ${args}`;
}

/**
 * The text left after the harness elements it starts with (an IDE block may share its text block
 * with the request). An element that never closes (cut, or unfinished) leaves nothing.
 */
export function withoutHarness(text: string): string {
  let rest = text;
  for (let open = LEADING_TAG.exec(rest); open !== null; open = LEADING_TAG.exec(rest)) {
    const close = rest.indexOf(`</${open[1] as string}>`, open[0].length);
    if (close === -1) return '';
    rest = rest.slice(close + (open[1] as string).length + 3);
  }
  return rest.trim();
}
