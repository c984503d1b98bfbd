// Entry point of the panel webview. It renders what the host sends and computes nothing itself:
// each section is built once and updated from the messages, so a 10/s stream of states never
// rebuilds the region map or loses the user's focus, selection or scroll position.
import { parseHostMessage, type HostMessage, type PanelState } from '../src/protocol/messages';
import { el, KeyedSection } from './dom';
import { renderDiagnostics, renderEmpty } from './empty';
import { Gauge } from './gauge';
import { createHeader } from './header';
import { post, savedState, saveState } from './vscodeApi';

const root = document.getElementById('app')!;

const header = createHeader();
const gauge = new Gauge();
const empty = new KeyedSection(el('div'), renderEmpty);
const diagnostics = new KeyedSection(el('div'), renderDiagnostics);

function showState(state: PanelState): void {
  header.session.update(state.session);
  gauge.update(state);
  empty.update(state.empty);
  diagnostics.update(state.diagnostics);
  // The e2e harness waits for this before reading the panel, so it is set after real content.
  root.setAttribute('data-ready', 'true');
}

function handle(message: HostMessage): void {
  switch (message.type) {
    case 'state':
      saveState({ panel: message.state });
      showState(message.state);
      return;
  }
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = parseHostMessage(event.data);
  if (!parsed.ok) {
    console.warn(`Context Lens: ignored a malformed message from the host: ${parsed.error}`);
    return;
  }
  handle(parsed.value);
});

const previous = savedState();
root.replaceChildren(header.element, gauge.element, empty.element, diagnostics.element);
if (previous.panel) showState(previous.panel);
post({ type: 'ready' });
