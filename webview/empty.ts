// Empty states say what to do next, with the button that does it.
import type { EmptyReason } from '../src/protocol/messages';
import { el, spinningIcon } from './dom';
import { commandButton } from './header';

export function renderEmpty(reason: EmptyReason | null): HTMLElement[] {
  switch (reason) {
    case null:
      return [];
    case 'noWorkspace':
      return [
        el(
          'div',
          { class: 'empty', 'data-testid': 'empty' },
          el('p', {}, 'Open a folder where you run a coding agent, or open a transcript file.'),
          commandButton('Open Transcript File…', 'openTranscript', 'folder-opened'),
        ),
      ];
    case 'noSession':
      return [
        el(
          'div',
          { class: 'empty', 'data-testid': 'empty' },
          el('p', {}, 'No agent session found for this workspace. Start ', el('code', {}, 'claude'), ' in this folder, or open a transcript file.'),
          el(
            'div',
            { class: 'actions' },
            commandButton('Open Transcript File…', 'openTranscript', 'folder-opened'),
            commandButton('Select Session…', 'selectSession', 'list-selection', true),
          ),
        ),
      ];
    case 'readingSession':
      return [
        el(
          'div',
          { class: 'empty', 'data-testid': 'empty', role: 'status' },
          el('p', {}, spinningIcon('loading'), ' Session found: reading its fill from the end of the transcript…'),
        ),
      ];
    case 'waitingForUsage':
      return [el('div', { class: 'empty', 'data-testid': 'empty' }, el('p', {}, 'Session found: waiting for the first response.'))];
  }
}

export function renderDiagnostics(diagnostics: readonly string[]): HTMLElement[] {
  if (diagnostics.length === 0) return [];
  return [
    el(
      'details',
      { class: 'diagnostics' },
      el('summary', {}, `${diagnostics.length} diagnostic(s) while reading the transcript`),
      el('ul', {}, ...diagnostics.map((text) => el('li', {}, text))),
      commandButton('Show Log', 'showLog', 'output', true),
    ),
  ];
}
