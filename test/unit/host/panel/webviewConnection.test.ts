import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WebviewConnection, type ConnectionHandlers } from '../../../../src/host/panel/WebviewConnection';

function connected() {
  let receive: (raw: unknown) => void = () => undefined;
  const posted: unknown[] = [];
  const webview = {
    onDidReceiveMessage: (listener: (raw: unknown) => void) => ((receive = listener), { dispose: () => undefined }),
    postMessage: (message: unknown) => (posted.push(message), Promise.resolve(true)),
  };
  const logged: { level: string; text: string }[] = [];
  const log = {
    warn: (text: string) => logged.push({ level: 'warn', text }),
    error: (text: string) => logged.push({ level: 'error', text }),
    info: () => undefined,
  };
  const handlers: ConnectionHandlers = {
    onCommand: () => undefined,
    onReady: () => undefined,
    onItemDetail: () => undefined,
    onPreviewAction: () => undefined,
    onCancelProgress: () => undefined,
    onChoice: () => undefined,
    log: log as unknown as ConnectionHandlers['log'],
  };
  const connection = new WebviewConnection(webview as never, handlers);
  return { connection, receive: (raw: unknown) => receive(raw), posted, logged };
}

describe('WebviewConnection', () => {
  it("logs what the webview refused of the host's state as our bug, once per kind", () => {
    const { receive, logged } = connected();
    receive({ type: 'refused', detail: 'thresholds: ✖ Too big: expected number to be <=100' });
    receive({ type: 'refused', detail: 'thresholds: ✖ Too big: expected number to be <=100' });
    receive({ type: 'refused', detail: 'cost: ✖ Invalid input' });
    assert.deepEqual(
      logged.map(({ level, text }) => `${level} ${text}`),
      [
        'error The panel refused part of the state the host sent (a Context Lens bug): thresholds: ✖ Too big: expected number to be <=100',
        'error The panel refused part of the state the host sent (a Context Lens bug): cost: ✖ Invalid input',
      ],
    );
  });

  it('logs at most twenty kinds from one webview: a webview cannot flood the log', () => {
    const { receive, logged } = connected();
    for (let kind = 0; kind < 100; kind++) receive({ type: 'refused', detail: `part ${kind}` });
    assert.equal(logged.length, 20);
  });
});
