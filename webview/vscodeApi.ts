// The one handle the webview has on its host. acquireVsCodeApi may be called only once.
import type { MapSort } from './logic/costView';
import type { ItemDetail, PanelState, PlanView, Preview, WebviewMessage } from '../src/protocol/messages';

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

/** What the user did to the panel, restored after hide/show together with the last messages. */
export interface UiState {
  selectedId: number | null;
  filter: string;
  /** null = follow the newest items (the map stays scrolled to the end as the session grows). */
  scrollTop: number | null;
  /** Open <details> sections, by key (history entries, preview parts). */
  expanded: string[];
  /** The map's sort and group-by-file view (absent: context order, items). */
  sort?: MapSort;
  groupByFile?: boolean;
}

export interface SavedState {
  panel?: PanelState;
  plan?: PlanView | null;
  preview?: Preview | null;
  detail?: ItemDetail | null;
  ui?: UiState;
}

let pending: SavedState = (api.getState() as SavedState | undefined) ?? {};
let timer: ReturnType<typeof setTimeout> | undefined;

/** Last state shown, kept by VS Code across hide/show so the panel does not flash empty. */
export function savedState(): SavedState {
  return pending;
}

/**
 * Merges a part into the saved state. Writing is debounced: states arrive up to 10/s and a plan
 * may hold 10k regions, so serialising on every message would cost more than the render itself.
 */
export function saveState(part: SavedState): void {
  pending = { ...pending, ...part };
  if (timer === undefined) {
    timer = setTimeout(() => {
      timer = undefined;
      api.setState(pending);
    }, 300);
  }
}
