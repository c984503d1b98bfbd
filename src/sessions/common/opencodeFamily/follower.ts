// Live follow of one OpenCode-family session. The session lives in a database, not a file of its own:
// the database and its log (`-wal`, where OpenCode's newest rows are) are watched, and when either's
// inode, size or time changes the session is read again (its own pages only), one read at a time
// (common/pollingFollower.ts). Read-only like every read here: no lock is taken, nothing is written.
import { PollingFollower } from '../pollingFollower';
import type { SessionInfo } from '../../types';
import { readOpencodeLiveContext, type OpencodeReadOptions } from './liveContext';
import type { OpencodeFlavour } from './flavour';
import { parseSessionPath } from './paths';
import { keepReads } from '../opencodeStore';

export interface OpencodeFollowerOptions extends OpencodeReadOptions {
  debounceMs?: number;
  pollMs?: number;
}

export class OpencodeSessionFollower extends PollingFollower {
  /** While following, the reads of the database keep what they read: a change reads what it changed. */
  private kept: { release(): void } | null = null;
  private readonly db: string | null;

  constructor(flavour: OpencodeFlavour, session: SessionInfo, options: OpencodeFollowerOptions = {}) {
    const parsed = parseSessionPath(session.path);
    super(
      {
        path: session.path,
        files: parsed === null ? null : [parsed.db, `${parsed.db}-wal`],
        invalid: { severity: 'error', code: 'invalid-path', message: `Not a session of ${flavour.name}: ${session.path}`, path: session.path },
        read: () => readOpencodeLiveContext(flavour, session, options),
      },
      { debounceMs: options.debounceMs ?? 150, pollMs: options.pollMs ?? 2000 },
    );
    this.db = parsed?.db ?? null;
  }

  override async start(): Promise<void> {
    if (this.db !== null) this.kept ??= keepReads(this.db);
    await super.start();
  }

  override dispose(): void {
    super.dispose();
    this.kept?.release();
    this.kept = null;
  }
}
