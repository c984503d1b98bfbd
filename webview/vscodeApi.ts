// The one handle the webview has on its host. acquireVsCodeApi may be called only once.
import type { PanelState, WebviewMessage } from '../src/protocol/messages';

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();

export function post(message: WebviewMessage): void {
  api.postMessage(message);
}

/** Last state shown, kept by VS Code across hide/show so the panel does not flash empty. */
export function savedState(): PanelState | undefined {
  const saved = api.getState() as { panel?: PanelState } | undefined;
  return saved?.panel;
}

export function saveState(panel: PanelState): void {
  api.setState({ panel });
}
