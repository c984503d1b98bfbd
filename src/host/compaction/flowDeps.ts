// What the compaction flow needs from the host, in one place: each of its parts (computing,
// applying, the diff, pruning) takes the slice it uses, so a part names its dependencies in its type.
import type * as vscode from 'vscode';
import type { Choices } from '../../protocol/messages';
import type { StateStorage } from '../context/choices';
import type { LiveSnapshot } from '../context/liveSnapshot';
import type { HistoryStore } from '../history/HistoryStore';
import type { PanelHub } from '../panel/PanelHub';
import type { SettingsWatcher } from '../settings';
import type { ApiKeyStore } from './ApiKeyStore';
import type { DiffDocuments } from './DiffDocuments';

export interface FlowDeps {
  readonly hub: PanelHub;
  readonly settings: SettingsWatcher;
  readonly apiKey: ApiKeyStore;
  readonly history: HistoryStore;
  readonly diffs: DiffDocuments;
  readonly snapshot: () => LiveSnapshot | null;
  /** The person's keep/drop/pin choices for the followed session, and their end once applied. */
  readonly choices: () => Choices;
  readonly clearChoices: (sessionPath: string) => Promise<void>;
  /** Fires when the live plan changed: new records, choices or settings (the preview is checked against them). */
  readonly planChanged: vscode.Event<unknown>;
  /** Where the last focus of each session is remembered. */
  readonly state: StateStorage;
  readonly revealPanel: () => void;
  readonly archiveFolder: string;
  readonly log: vscode.LogOutputChannel;
}
