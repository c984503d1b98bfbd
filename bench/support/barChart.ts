// A horizontal grouped bar chart as a plain SVG, for the README: one group per scenario, one bar
// per command, the milliseconds written at the end of each bar. Transparent background and
// mid-grey text so it reads on GitHub's light and dark pages alike.

export interface BarGroup {
  label: string;
  bars: Array<{ label: string; ms: number }>;
}

/** Bar colours by position in a group, the same in every group (legend order). */
const COLOURS = ['#9e9e9e', '#2f81f7', '#8fb8f0', '#e8883a'];
const TEXT = 'fill="#808080" font-family="-apple-system, Segoe UI, Helvetica, Arial, sans-serif" font-size="12"';
const WIDTH = 760;
const LABEL_WIDTH = 200;
const BAR = 14;
const GAP = 3;
const GROUP_GAP = 14;
const TOP = 44;

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function barChart(groups: readonly BarGroup[], title: string): string {
  const longest = Math.max(1, ...groups.flatMap((group) => group.bars.map((bar) => bar.ms)));
  // Room at the right for the figure after the longest bar.
  const scale = (WIDTH - LABEL_WIDTH - 70) / longest;
  const names = groups[0]?.bars.map((bar) => bar.label) ?? [];
  const parts: string[] = [];
  let y = TOP;
  for (const group of groups) {
    const height = group.bars.length * (BAR + GAP) - GAP;
    parts.push(`<text x="${LABEL_WIDTH - 10}" y="${y + height / 2 + 4}" text-anchor="end" ${TEXT}>${escape(group.label)}</text>`);
    group.bars.forEach((bar, index) => {
      const width = Math.max(1, bar.ms * scale);
      parts.push(`<rect x="${LABEL_WIDTH}" y="${y}" width="${width.toFixed(1)}" height="${BAR}" rx="2" fill="${COLOURS[index % COLOURS.length]}"/>`);
      parts.push(`<text x="${(LABEL_WIDTH + width + 6).toFixed(1)}" y="${y + BAR - 3}" ${TEXT}>${bar.ms.toFixed(0)} ms</text>`);
      y += BAR + GAP;
    });
    y += GROUP_GAP - GAP;
  }
  let x = 10;
  const legend = names.map((name, index) => {
    const item = `<rect x="${x}" y="24" width="12" height="12" rx="2" fill="${COLOURS[index % COLOURS.length]}"/><text x="${x + 17}" y="34" ${TEXT}>${escape(name)}</text>`;
    x = Math.round(x + 24 + name.length * 6.6);
    return item;
  });
  const height = y + 6;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="${escape(title)}">`,
    `<text x="10" y="16" ${TEXT} font-weight="bold">${escape(title)}</text>`,
    ...legend,
    ...parts,
    '</svg>',
    '',
  ].join('\n');
}
