// Live follow of one Cline session. Cline writes its files whole (a new file renamed over the old,
// or rewritten in place) on every message, so there is nothing to append-read: the session is read
// again whole when one of its files moved (common/pollingFollower.ts).
import { PollingFollower } from '../common/pollingFollower';
import type { SessionInfo } from '../types';
import { readClineLiveContext, type ClineReadOptions } from './liveContext';
import { placeOf } from './paths';

export interface ClineFollowerOptions extends ClineReadOptions {
  debounceMs?: number;
  pollMs?: number;
}

export class ClineSessionFollower extends PollingFollower {
  constructor(session: SessionInfo, options: ClineFollowerOptions = {}) {
    const place = placeOf(session.path);
    super(
      {
        path: session.path,
        files: place === null ? [session.path] : place.layout === 'sdk' ? [place.messages] : [place.history, place.ui],
        read: () => readClineLiveContext(session, session.path, options),
      },
      { debounceMs: options.debounceMs ?? 100, pollMs: options.pollMs ?? 1000 },
    );
  }
}
