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
});
