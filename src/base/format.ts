// Numbers, counts and paths as every surface prints them (CLI, panel, status bar, engine stubs), so
// one count reads the same everywhere. Pure: the webview imports it too.

/**
 * `1,234,567` for a whole number, as `toLocaleString('en-US')` writes it, without going through
 * ICU: stubs and elision markers are written for thousands of items in one plan.
 */
export function thousands(value: number): string {
  const digits = String(Math.round(Math.abs(value)));
  return `${value < 0 ? '-' : ''}${digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
}

/** `1 call`, `2 calls`, `1,234 entries` (give the plural when it is not the word plus `s`). */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${thousands(count)} ${count === 1 ? singular : pluralForm}`;
}

/** A path under `workspace` as the agent would name it, relative to it; any other path unchanged. */
export function shortPath(path: string, workspace: string | undefined): string {
  const root = workspace === undefined ? undefined : `${workspace.replace(/\/+$/, '')}/`;
  return root !== undefined && path.startsWith(root) ? path.slice(root.length) : path;
}
