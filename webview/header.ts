// The panel header: which session we are looking at (title · model · live dot) and the toolbar
// with the actions a user reaches for most. Built once; only the session line changes.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import type { SessionSummary, WebviewCommand } from '../src/protocol/messages';
import { custom, el, icon, KeyedSection } from './dom';
import { post } from './vscodeApi';

export function commandButton(label: string, command: WebviewCommand, iconName: string, secondary = false, title?: string): HTMLElement {
  const button = custom('vscode-button', { icon: iconName, ...(secondary ? { secondary: '' } : {}), ...(title ? { title } : {}) }, label);
  button.addEventListener('click', () => post({ type: 'command', command }));
  return button;
}

function sessionLine(session: SessionSummary | null): (Node | string)[] {
  if (!session) return [];
  const parts: (Node | string)[] = [' · ', el('span', { 'data-testid': 'session-title', title: session.path }, session.title)];
  if (session.model) parts.push(' · ', el('span', { class: 'muted' }, session.model));
  // The dot is never alone: the word "live" says the same for screen readers and in high contrast.
  if (session.live) parts.push(' · ', el('span', { class: 'live', title: 'Following the transcript live' }, el('span', { class: 'live-dot', 'aria-hidden': 'true' }, '●'), ' live'));
  return parts;
}

export function createHeader(): { element: HTMLElement; session: KeyedSection<SessionSummary | null> } {
  const session = new KeyedSection<SessionSummary | null>(el('span', { class: 'session' }), sessionLine);
  const toolbar = el(
    'div',
    { class: 'toolbar', role: 'toolbar', 'aria-label': 'Context Lens actions' },
    commandButton('Compact…', 'compact', 'fold', false, 'Compact now, with optional focus instructions; shows a preview first'),
    commandButton('Preview', 'previewCompaction', 'eye', true, 'Preview what a compaction would do, without changing anything'),
    commandButton('Select Session', 'selectSession', 'list-selection', true),
    commandButton('Settings', 'openSettings', 'settings-gear', true),
  );
  const element = el('header', { class: 'header' }, el('h1', {}, icon('pulse'), ' ', el('span', { class: 'title' }, 'Context Lens'), session.element), toolbar);
  return { element, session };
}
