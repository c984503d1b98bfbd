import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { agentHooksLine } from '../../../webview/logic/agentHooks';

const hooks = (state: 'none' | 'connected' | 'partial' | 'disconnected', agent = 'Claude Code', where = '.claude/settings.local.json') => ({
  agent,
  state,
  where,
});

describe('agent hooks line', () => {
  it('says connected, with an icon, and offers Disconnect', () => {
    const line = agentHooksLine(hooks('connected'));
    assert.equal(line.text, 'Claude Code hooks: connected in .claude/settings.local.json');
    assert.equal(line.icon, 'plug');
    assert.deepEqual([line.action?.label, line.action?.command], ['Disconnect', 'disconnectAgent']);
    assert.match(line.action?.title ?? '', /\.claude\/settings\.local\.json/);
  });

  it('says what connecting is for when not connected, and offers Connect', () => {
    const line = agentHooksLine(hooks('disconnected'));
    assert.match(line.text, /^Claude Code hooks: not connected — keep your constraints through Claude Code's own compactions$/);
    assert.deepEqual([line.action?.label, line.action?.command], ['Connect…', 'connectAgent']);
  });

  it('offers Connect to complete a partial connection, which has its own words and icon', () => {
    const line = agentHooksLine(hooks('partial'));
    assert.equal(line.text, 'Claude Code hooks: partly connected or outdated in .claude/settings.local.json');
    assert.deepEqual([line.action?.label, line.action?.command], ['Connect…', 'connectAgent']);
    const icons = new Set((['connected', 'partial', 'disconnected', 'none'] as const).map((state) => agentHooksLine(hooks(state)).icon));
    assert.equal(icons.size, 4, 'each state has its own icon, so none relies on colour');
  });

  it('names an agent without such hooks and how to continue, and offers nothing to connect', () => {
    const line = agentHooksLine(hooks('none', 'Codex CLI', 'codex resume <fork id>'));
    assert.equal(line.text, 'Codex CLI has no compaction hooks: compact here with Compact…, then continue the fork with `codex resume <fork id>`');
    assert.equal(line.action, undefined);
  });

  it('says what the agent still needs once connected, and what Connect injects on hover', () => {
    const codex = {
      ...hooks('connected', 'Codex CLI', '.codex/hooks.json and .codex/config.toml'),
      detail: 'Adds a SessionStart hook…',
      caveat: 'Codex runs it only once you trust this folder and the hook',
    };
    const line = agentHooksLine(codex);
    assert.equal(line.text, 'Codex CLI hooks: connected in .codex/hooks.json and .codex/config.toml');
    assert.equal(line.caveat, 'Codex runs it only once you trust this folder and the hook');
    assert.equal(line.title, 'Adds a SessionStart hook…');
    // Not connected: nothing to trust yet (Connect's dialog says it).
    assert.equal(agentHooksLine({ ...codex, state: 'disconnected' }).caveat, undefined);
    assert.equal(agentHooksLine(hooks('connected')).caveat, undefined);
  });

  it('names a plugin a plugin (OpenCode), in every state', () => {
    const opencode = { ...hooks('connected', 'OpenCode', '.opencode/plugins/context-lens.js'), installs: 'plugin' as const };
    assert.equal(agentHooksLine(opencode).text, 'OpenCode plugin: connected in .opencode/plugins/context-lens.js');
    assert.match(agentHooksLine({ ...opencode, state: 'partial' }).text, /^OpenCode plugin: partly connected or outdated/);
    assert.match(agentHooksLine({ ...opencode, state: 'disconnected' }).text, /^OpenCode plugin: not connected — keep your constraints/);
  });
});
