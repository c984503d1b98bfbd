// Entry point of the panel webview. It renders what the host sends and computes nothing itself.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import { parseHostMessage, type PanelState, type WebviewCommand } from '../src/protocol/messages';
import { custom, el, icon } from './dom';
import { renderGauge } from './gauge';
import { post, savedState, saveState } from './vscodeApi';

const root = document.getElementById('app')!;

function commandButton(label: string, command: WebviewCommand, iconName: string, secondary = false): HTMLElement {
  const button = custom('vscode-button', { icon: iconName, ...(secondary ? { secondary: '' } : {}) }, label);
  button.addEventListener('click', () => post({ type: 'command', command }));
  return button;
}

function renderEmpty(state: PanelState): HTMLElement | null {
  switch (state.empty) {
    case null:
      return null;
    case 'noWorkspace':
      return el('div', { class: 'empty', 'data-testid': 'empty' }, el('p', {}, 'Open a folder where you run a coding agent, or open a transcript file.'), commandButton('Open Transcript File…', 'openTranscript', 'folder-opened'));
    case 'noSession':
      return el(
        'div',
        { class: 'empty', 'data-testid': 'empty' },
        el('p', {}, 'No agent session found for this workspace. Start ', el('code', {}, 'claude'), ' in this folder, or open a transcript file.'),
        el('div', { class: 'actions' }, commandButton('Open Transcript File…', 'openTranscript', 'folder-opened'), commandButton('Select Session…', 'selectSession', 'list-selection', true)),
      );
    case 'waitingForUsage':
      return el('div', { class: 'empty', 'data-testid': 'empty' }, el('p', {}, 'Session found: waiting for the first response.'));
  }
}

function renderHeader(state: PanelState): HTMLElement {
  const session = state.session;
  const parts: (Node | string)[] = [icon('pulse'), ' ', el('span', { class: 'title' }, 'Context Lens')];
  if (session) {
    parts.push(' · ', el('span', { 'data-testid': 'session-title' }, session.title));
    if (session.model) parts.push(' · ', el('span', { class: 'muted' }, session.model));
    if (session.live) parts.push(' ', el('span', { class: 'live', title: 'Following the transcript live' }, '● live'));
  }
  return el('header', { class: 'header' }, el('h1', {}, ...parts), el('div', { class: 'toolbar' }, commandButton('Settings', 'openSettings', 'settings-gear', true)));
}

function render(state: PanelState): void {
  const diagnostics = state.diagnostics.length
    ? el('details', { class: 'diagnostics' }, el('summary', {}, icon('warning'), ` ${state.diagnostics.length} diagnostic(s) while reading the transcript`), el('ul', {}, ...state.diagnostics.map((text) => el('li', {}, text))))
    : null;
  const sections = [renderHeader(state), renderGauge(state.fill, state.thresholds), renderEmpty(state), diagnostics];
  root.replaceChildren(...sections.filter((section): section is HTMLElement => section !== null));
  root.setAttribute('data-ready', 'true');
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = parseHostMessage(event.data);
  if (!parsed.ok) {
    console.warn(`Context Lens: ignored a malformed message from the host: ${parsed.error}`);
    return;
  }
  switch (parsed.value.type) {
    case 'state':
      saveState(parsed.value.state);
      render(parsed.value.state);
      return;
  }
});

const previous = savedState();
if (previous) render(previous);
post({ type: 'ready' });
