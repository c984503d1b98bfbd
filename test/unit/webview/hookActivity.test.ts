import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hookActivityLine } from '../../../webview/logic/hookActivity';

const preCompact = { constraints: 2, openLoops: 1, workspaceFocus: 'the retry rework', error: null };

describe('hook activity line', () => {
  it('says what was sent and that it came back after the compaction', () => {
    assert.deepEqual(hookActivityLine({ preCompact, sessionStart: { printed: true, error: null } }), {
      failed: false,
      text: 'pinned block sent: 2 constraints, 1 open loop · focus ‘the retry rework’ · re-injected after compaction',
    });
    assert.equal(
      hookActivityLine({ preCompact: { ...preCompact, constraints: 0, workspaceFocus: null }, sessionStart: null }).text,
      'pinned block sent: 1 open loop · not re-injected',
    );
    assert.equal(
      hookActivityLine({ preCompact: { ...preCompact, constraints: 0, openLoops: 0 }, sessionStart: { printed: false, error: null } }).text,
      'nothing pinned to send · focus ‘the retry rework’',
    );
    assert.equal(hookActivityLine({ preCompact: null, sessionStart: { printed: false, error: null } }).text, 'nothing re-injected');
  });

  it('says which hook failed and why', () => {
    assert.deepEqual(hookActivityLine({ preCompact: { constraints: 0, openLoops: 0, workspaceFocus: null, error: 'bad settings.json' }, sessionStart: null }), {
      failed: true,
      text: 'pre-compact hook failed: bad settings.json',
    });
    assert.deepEqual(hookActivityLine({ preCompact, sessionStart: { printed: false, error: 'EACCES' } }), {
      failed: true,
      text: 'pinned block sent: 2 constraints, 1 open loop · focus ‘the retry rework’ · session-start hook failed: EACCES',
    });
  });

  it('says what was put back when no block went to the summariser (Codex, Gemini CLI)', () => {
    assert.deepEqual(hookActivityLine({ preCompact: null, sessionStart: { printed: true, error: null, constraints: 3, openLoops: 1 } }), {
      failed: false,
      text: 'pinned block re-injected after compaction: 3 constraints, 1 open loop',
    });
    // A state saved by an earlier version has no counts.
    assert.equal(hookActivityLine({ preCompact: null, sessionStart: { printed: true, error: null } }).text, 'pinned block re-injected after compaction');
  });
});
