// The panel header: which session we are looking at (title · model · live dot), the toolbar
// with the actions a user reaches for most, and whether the agent's hooks are connected here. Built once;
// only the session and connection lines change.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import type { AgentHooks, SessionSummary, WebviewCommand } from '../src/protocol/messages';
import { custom, el, icon, KeyedSection } from './dom';
import { agentHooksLine } from './logic/agentHooks';
import { post } from './vscodeApi';

/** Clicking `node` asks the host to run `command` (whitelisted by the protocol). */
function requesting<T extends HTMLElement>(node: T, command: WebviewCommand): T {
  node.addEventListener('click', () => post({ type: 'command', command }));
  return node;
}

export function commandButton(label: string, command: WebviewCommand, iconName: string, secondary = false, title?: string): HTMLElement {
  return requesting(custom('vscode-button', { icon: iconName, ...(secondary ? { secondary: '' } : {}), ...(title ? { title } : {}) }, label), command);
}

/** Secondary information: muted words with a text-link action, not another toolbar button. */
function hooksLine(state: AgentHooks | null | undefined): HTMLElement[] {
  // undefined in a state saved by an earlier version of the panel.
  if (!state) return [];
  const line = agentHooksLine(state);
  const action = line.action
    ? [' · ', requesting(el('button', { class: 'link-button', type: 'button', title: line.action.title }, line.action.label), line.action.command)]
    : [];
  const caveat = line.caveat
    ? [' · ', el('span', { class: 'agent-hooks-caveat', 'data-testid': 'agent-hooks-caveat' }, icon('warning'), ' ', line.caveat)]
    : [];
  return [
    el(
      'span',
      { 'data-testid': 'agent-hooks', 'data-state': state.state, ...(line.title ? { title: line.title } : {}) },
      icon(line.icon),
      ' ',
      line.text,
      ...action,
      ...caveat,
    ),
  ];
}

function sessionLine(session: SessionSummary | null): (Node | string)[] {
  if (!session) return [];
  const parts: (Node | string)[] = [' · '];
  // A fork carries its original's title: "fork of" goes before the one title (never the title twice),
  // so it is read first and a long title cut short never hides it.
  if (session.forkOf) {
    const source = session.forkOf.title ?? 'another session';
    parts.push(
      el(
        'span',
        {
          class: 'muted fork-of',
          'data-testid': 'fork-of',
          title: `Written by Context Lens's Apply: a compacted copy of “${source}”. Select Session… opens the original.`,
        },
        icon('repo-forked'),
        ' fork of ',
      ),
    );
  }
  parts.push(
    el(
      'span',
      {
        class: 'session-title',
        'data-testid': 'session-title',
        title: `${session.forkOf?.title && session.forkOf.title !== session.title ? `${session.title} (original: ${session.forkOf.title})` : session.title}\n${session.location ?? session.path}`,
      },
      session.title,
    ),
  );
  if (session.model) parts.push(' · ', el('span', { class: 'muted' }, session.model));
  // The dot is never alone: the word "live" says the same for screen readers and in high contrast.
  if (session.live)
    parts.push(
      ' · ',
      el('span', { class: 'live', title: 'Following the transcript live' }, el('span', { class: 'live-dot', 'aria-hidden': 'true' }, '●'), ' live'),
    );
  return parts;
}

export function createHeader(): { element: HTMLElement; session: KeyedSection<SessionSummary | null>; hooks: KeyedSection<AgentHooks | null> } {
  const session = new KeyedSection<SessionSummary | null>(el('span', { class: 'session' }), sessionLine);
  const hooks = new KeyedSection<AgentHooks | null>(el('div', { class: 'agent-hooks muted small' }), hooksLine);
  const toolbar = el(
    'div',
    { class: 'toolbar', role: 'toolbar', 'aria-label': 'Context Lens actions' },
    commandButton('Compact…', 'compact', 'fold', false, 'Compact now, with optional focus instructions; shows a preview first'),
    commandButton('Preview', 'previewCompaction', 'eye', true, 'Preview what a compaction would do, without changing anything'),
    commandButton('Select Session', 'selectSession', 'list-selection', true),
    commandButton('Settings', 'openSettings', 'settings-gear', true),
  );
  const element = el(
    'header',
    { class: 'header' },
    el('h1', {}, icon('pulse'), ' ', el('span', { class: 'title' }, 'Context Lens'), session.element),
    toolbar,
    hooks.element,
  );
  return { element, session, hooks };
}
