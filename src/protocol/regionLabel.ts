// What the region map (and `inspect --json`) calls an item: the tool and what it touched, a tool
// definition by its name, anything else by its first words with the agent's markup tags removed,
// so a row reads "Called the Read tool…" rather than "<system-reminder>".

export interface LabelledItem {
  kind: string;
  text: string;
  toolName?: string;
  resourceKey?: string;
}

const LABEL_MAX = 200;
const FIRST_WORDS_CHARS = 60;

/**
 * `file:/a/b.ts#10+20` → `/a/b.ts#10+20`; the prefix says what the tool name already says. Paths
 * inside the agent's working directory read relative to it, so the file name fits the column.
 */
function resourceText(resourceKey: string, workspace: string | undefined): string {
  const text = resourceKey.replace(/^(file|cmd|url|dir):/, '').replace(/^(search|tool):[^:]*:/, '');
  return workspace ? text.split(`${workspace}/`).join('') : text;
}

/** Text without `<tag>`/`</tag>` markup (system-reminder, command-name…), whitespace folded. */
function plainText(text: string): string {
  return text
    .replace(/<\/?[a-z][a-z0-9-]*(?:\s[^>]*)?>/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The first characters cleaned: 4 KiB usually holds them, however long the tool output. */
const FIRST_WINDOW_CHARS = 4096;

/**
 * The item's first words, from a growing window of its start rather than all of it (a label is
 * asked of every item, and one may be a 100 KB tool output). A window ends before a `<` it does not
 * close, so a tag it cuts is never taken for text; its cleaned text is a prefix of the whole's.
 */
function firstWords(text: string): string {
  for (let size = FIRST_WINDOW_CHARS; ; size *= 2) {
    let window = text.slice(0, size);
    if (size < text.length && window.lastIndexOf('<') > window.lastIndexOf('>')) window = window.slice(0, window.lastIndexOf('<'));
    const flat = plainText(window);
    if (flat.length > FIRST_WORDS_CHARS) return `${flat.slice(0, FIRST_WORDS_CHARS - 1)}…`;
    if (size >= text.length) return flat;
  }
}

/** A tool definition is JSON with a name; the schema says nothing at a glance. */
function toolDefinitionName(text: string): string | undefined {
  return /^\s*\{\s*"name"\s*:\s*"([^"]{1,100})"/.exec(text)?.[1];
}

/** `workspace`: the agent's working directory, when known (paths are shown relative to it). */
export function regionLabel(item: LabelledItem, workspace?: string): string {
  let label: string;
  const definition = item.kind === 'tools' ? toolDefinitionName(item.text) : undefined;
  if (definition) label = `tool definition: ${definition}`;
  else if (item.toolName) label = `${item.toolName} ${item.resourceKey ? resourceText(item.resourceKey, workspace) : firstWords(item.text)}`;
  else label = firstWords(item.text) || item.kind;
  return label.length > LABEL_MAX ? `${label.slice(0, LABEL_MAX - 1)}…` : label;
}
