// Side-by-side diff of a compaction: one block per changed item, the text before on the left and
// what it becomes on the right. The right side is labelled with the fate (stub, truncation,
// dropped) so a replaced item is never mistaken for the original. All text goes in as text nodes.
import type { DiffBlock } from '../src/protocol/messages';
import { el, icon } from './dom';
import { FATE_ICONS } from './logic/format';

const AFTER_LABEL: Readonly<Record<DiffBlock['fate'], string>> = {
  preserved: 'after (kept as is)',
  compacted: 'after (stub / summary)',
  dropped: 'after (dropped)',
};

function side(label: string, text: string, className: string, placeholder: string): HTMLElement {
  return el(
    'div',
    { class: `diff-side ${className}` },
    el('div', { class: 'diff-side-label' }, label),
    text ? el('pre', { class: 'diff-text' }, text) : el('p', { class: 'diff-empty muted' }, placeholder),
  );
}

export function renderDiffBlock(block: DiffBlock): HTMLElement {
  return el(
    'article',
    {
      class: `diff-block fate-border-${block.fate}`,
      'data-testid': 'diff-block',
      'data-id': String(block.id),
      'aria-label': `Item #${block.id} ${block.label}, ${block.fate}`,
    },
    el(
      'header',
      { class: 'diff-head' },
      el('span', {}, `#${block.id} ${block.label}`),
      el('span', { class: `fate-${block.fate}` }, icon(FATE_ICONS[block.fate]), ` ${block.fate}`),
    ),
    el(
      'div',
      { class: 'diff-columns' },
      side('before', block.before, 'diff-before', '(empty)'),
      side(AFTER_LABEL[block.fate], block.after, `diff-after fate-${block.fate}-side`, '(removed from the context)'),
    ),
  );
}
