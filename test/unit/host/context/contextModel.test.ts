// The panel's "reading…" note belongs to the first read of a session's live context only: once the
// breakdown and map are shown it is gone, though the session's calls are still being priced (a
// Gemini and an OpenCode session through the live proxy showed "Reading the live context…" beside
// their map, because the note was cleared only after the costs).
import { DEMO_SESSION } from '../../../support/demoSession';
import '../../../support/vscodeStub';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ContextModel } from '../../../../src/host/context/ContextModel';
import type { SessionService } from '../../../../src/host/sessions/SessionService';
import { readSettings, type SettingsWatcher } from '../../../../src/host/settings';
import { adapterOf } from '../../../../src/sessions/agents';
import { readSessionInfo } from '../../../../src/sessions/claude-code/listing';
import { openSession } from '../../../../src/sessions/handle/open';

const DEMO = DEMO_SESSION;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as ConstructorParameters<typeof ContextModel>[2];
const memory = new Map<string, unknown>();
const state = {
  get: <T>(key: string): T | undefined => memory.get(key) as T | undefined,
  update: (key: string, value: unknown) => void memory.set(key, value),
};

describe('ContextModel', () => {
  it('stops saying it is reading once the snapshot is shown, before the calls are priced', async () => {
    const info = await readSessionInfo(DEMO);
    assert.ok(info.ok);
    const handle = openSession(adapterOf(info.value.agent), info.value);
    let notify: () => void = () => undefined;
    const sessions = {
      current: { handle: null as unknown, fill: null as unknown },
      onDidChange: (listener: () => void) => ((notify = listener), { dispose: () => undefined }),
    };
    const settings = { current: readSettings(), onDidChange: () => ({ dispose: () => undefined }) };
    const model = new ContextModel(sessions as unknown as SessionService, settings as unknown as SettingsWatcher, quiet, state as never);
    const seen: { shown: boolean; loading: boolean; priced: boolean }[] = [];
    model.onDidChange(() => seen.push({ shown: model.snapshot !== null, loading: model.loading, priced: model.cost !== null }));
    try {
      // The tail read's fill: the model reads the live context once one is shown.
      sessions.current = { handle, fill: { usedTokens: 1 } };
      notify();
      assert.equal(model.loading, true, 'the first read is under way');
      const deadline = Date.now() + 20_000;
      while (!seen.some((one) => one.priced) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.ok(
        seen.some((one) => one.priced),
        `the costs never came: ${JSON.stringify(seen)}`,
      );
      const shownWhileReading = seen.filter((one) => one.shown && one.loading);
      assert.deepEqual(shownWhileReading, [], `the map was shown with the reading note: ${JSON.stringify(seen)}`);
    } finally {
      model.dispose();
      await handle.dispose();
    }
  });
});
