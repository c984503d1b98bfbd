// One read of a session as the panel reads it: through a session handle, closed again after.
import { readSnapshot } from '../../../../src/host/context/liveSnapshot';
import { adapterOf } from '../../../../src/sessions/agents';
import { openSession } from '../../../../src/sessions/handle/open';
import type { SessionHandle } from '../../../../src/sessions/port';
import type { SessionInfo } from '../../../../src/sessions/types';

export async function snapshotOf(
  session: SessionInfo,
  windowOverride: number,
): Promise<{ read: Awaited<ReturnType<typeof readSnapshot>>; handle: SessionHandle }> {
  const handle = openSession(adapterOf(session.agent), session, { windowOverride });
  try {
    return { read: await readSnapshot(handle), handle };
  } finally {
    await handle.dispose();
  }
}
