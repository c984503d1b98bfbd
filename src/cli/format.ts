// Terminal rendering shared by the commands: numbers, a plain table and the text gauge.
import { effectiveTrigger } from '../pricing';
import { DEFAULT_TRIGGER_OPTIONS } from '../engine';
import { thousands } from '../base/format';

export { printable } from '../protocol/printable';

/** A count as `1,234`; a damaged one (negative, infinite, not a number) as `?` rather than `-Infinity`. */
export const tokens = (value: number): string => (Number.isFinite(value) && value >= 0 ? thousands(value) : '?');
export const percent = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(1)} %` : '? %');
export const percentOf = (part: number, whole: number): number => (whole > 0 ? (part / whole) * 100 : 0);

/** At most `max` characters, the last an ellipsis when cut. */
export const clip = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
/** `clip` of the text on one line (runs of whitespace, newlines included, as one space). */
export const oneLine = (text: string, max: number): string => clip(text.replace(/\s+/g, ' ').trim(), max);

export function bytes(value: number): string {
  if (value < 1024) return `${value} B`;
  if (value < 1024 * 1024) return `${(value / 1024).toFixed(1)} KB`;
  return `${(value / (1024 * 1024)).toFixed(1)} MB`;
}

/** Columns padded to their widest cell; `right` columns are numbers. */
export function table(header: readonly string[], rows: readonly (readonly string[])[], right: readonly number[] = []): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (right.includes(column) ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

const GAUGE_CELLS = 40;

/**
 * `[██████░░░░│░░│░│] 62.2 %`: the fill, with a `│` at our target, trigger and safety net and at
 * the agent's own auto-compact point, plus a legend naming the marks.
 */
export function gauge(usedTokens: number, windowTokens: number, agentAutoCompactTokens: number, agentName = 'the agent'): string {
  const fill = percentOf(usedTokens, windowTokens);
  const { targetPercent, safetyNetPercent } = DEFAULT_TRIGGER_OPTIONS;
  const agentPercent = percentOf(agentAutoCompactTokens, windowTokens);
  // Tiny (overridden) windows leave the agent no room to auto-compact: its point is then ≤ 0.
  const agentKnown = agentAutoCompactTokens > 0;
  // The trigger the panel shows too: by default below the agent's own point.
  const thresholdPercent = effectiveTrigger(
    { thresholdPercent: DEFAULT_TRIGGER_OPTIONS.thresholdPercent, thresholdSet: false },
    targetPercent,
    agentKnown ? agentPercent : null,
    agentName,
  ).percent;
  // A window smaller than the model's (an override) can put the agent's point beyond it: no mark then.
  const agentInside = agentKnown && agentPercent <= 100;
  const marks = [targetPercent, thresholdPercent, safetyNetPercent, ...(agentInside ? [agentPercent] : [])].map((mark) =>
    Math.min(GAUGE_CELLS - 1, Math.round((mark / 100) * GAUGE_CELLS)),
  );
  const filled = Math.min(GAUGE_CELLS, Math.round((fill / 100) * GAUGE_CELLS));
  let bar = '';
  for (let cell = 0; cell < GAUGE_CELLS; cell++) bar += marks.includes(cell) ? '│' : cell < filled ? '█' : '░';
  const point = agentInside
    ? `${percent(agentPercent)} ${agentName} auto-compact (${tokens(agentAutoCompactTokens)})`
    : agentKnown
      ? `${agentName} auto-compacts at ${tokens(agentAutoCompactTokens)}, beyond this window`
      : `no ${agentName} auto-compact point in this window`;
  const legend = `│ marks: ${targetPercent} % target, ${thresholdPercent} % trigger, ${safetyNetPercent} % safety net, ${point}`;
  return `[${bar}] ${percent(fill)}  ${tokens(usedTokens)} / ${tokens(windowTokens)}\n${legend}`;
}
