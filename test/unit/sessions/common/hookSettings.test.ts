// Our command hooks in a Claude-shaped hooks JSON (Codex's hooks.json, Gemini's settings.json):
// Connect appends, Disconnect cuts out exactly that, so every file of the person's comes back byte for byte.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { connectHooks, disconnectHooks, freshHookSettings, hooksPresent, type OurHook } from '../../../../src/sessions/common/hookSettings';

const HOOKS: OurHook[] = [{ event: 'SessionStart', matcher: 'compact', command: 'CONTEXT_LENS_CONNECT=1 ctxlens hook session-start --agent codex' }];
const isOurs = (command: string): boolean => command === HOOKS[0]?.command;

describe('hook settings edit', () => {
  it('round-trips the person’s files byte for byte', () => {
    const files = [
      '{}\n',
      '{\n  // mine\n  "hooks": {\n    "Stop": [{ "hooks": [{ "type": "command", "command": "true" }] }]\n  }\n}\n',
      '{\n\t"hooks": {\n\t\t"SessionStart": [\n\t\t\t{ "matcher": "startup", "hooks": [{ "type": "command", "command": "echo hi" }] }\n\t\t]\n\t},\n\t"ui": { "theme": "x" }\n}',
      '{ "model": { "name": "m" } }',
    ];
    for (const text of files) {
      const on = connectHooks(text, HOOKS, isOurs, 'f');
      assert.ok(on.ok);
      assert.equal(hooksPresent(on.text, HOOKS, isOurs), 1, on.text);
      assert.deepEqual(connectHooks(on.text, HOOKS, isOurs, 'f'), { ok: true, text: on.text }, 'connecting twice changes nothing');
      const off = disconnectHooks(on.text, HOOKS, isOurs, 'f');
      assert.deepEqual(off, { ok: true, text });
    }
  });

  it('creates a file of ours alone, and refuses a shape it cannot edit safely', () => {
    const fresh = connectHooks(null, HOOKS, isOurs, 'f');
    assert.deepEqual(fresh, { ok: true, text: freshHookSettings(HOOKS) });
    assert.equal(connectHooks('{ "hooks": [] }', HOOKS, isOurs, 'f').ok, false);
    assert.equal(connectHooks('{ "hooks": { "SessionStart": {} } }', HOOKS, isOurs, 'f').ok, false);
    assert.equal(connectHooks('{ nope', HOOKS, isOurs, 'f').ok, false);
  });
});
