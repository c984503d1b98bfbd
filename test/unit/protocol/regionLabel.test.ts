// A label is the item's first words with markup removed; it is read from the start of the text
// only, and must read as if the whole text had been cleaned.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { regionLabel } from '../../../src/protocol/regionLabel';

/** The rule on the whole text: tags out, whitespace folded, the first 60 characters. */
function wholeTextLabel(text: string, kind: string): string {
  const flat = text
    .replace(/<\/?[a-z][a-z0-9-]*(?:\s[^>]*)?>/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return (flat.length > 60 ? `${flat.slice(0, 59)}…` : flat) || kind;
}

const piece = fc.oneof(
  fc.constantFrom(
    '<system-reminder>',
    '</system-reminder>',
    '<command-name>',
    '<a href="x">',
    `<a title="${'t'.repeat(700)}">`,
    '<',
    '>',
    ' ',
    '\n\n  ',
    'word ',
    'x'.repeat(3000),
    ' '.repeat(1500),
  ),
  fc.string({ maxLength: 40 }),
);

describe('regionLabel', () => {
  it('names an item by its first words as if its whole text were cleaned, however long and wherever a tag falls', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const text = pieces.join('');
        assert.equal(regionLabel({ kind: 'user', text }), wholeTextLabel(text, 'user'));
      }),
      { numRuns: 1500 },
    );
  });

  it('never takes a tag cut by the window it reads for text', () => {
    const text = `${'w'.repeat(30)}${' '.repeat(4050)}<a title="${'t'.repeat(300)}">then words`;
    assert.equal(regionLabel({ kind: 'user', text }), `${'w'.repeat(30)} then words`);
  });

  it('reads a reminder that starts a long output', () => {
    const text = `<system-reminder>${' '.repeat(5000)}</system-reminder>${'<b>'.repeat(2000)}the actual words here ${'z'.repeat(100_000)}`;
    assert.equal(regionLabel({ kind: 'user', text }), wholeTextLabel(text, 'user'));
  });
});
