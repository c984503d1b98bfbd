// `1,234,567` for a whole number, as `toLocaleString('en-US')` writes it, without going through
// ICU: stubs and elision markers are written for thousands of items in one plan.
export function thousands(value: number): string {
  const digits = String(Math.round(Math.abs(value)));
  return `${value < 0 ? '-' : ''}${digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
}
