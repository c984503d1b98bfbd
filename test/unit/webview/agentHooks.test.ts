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
    assert.equal(line.text, 'Claude Code hooks: connected');
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
    assert.equal(line.text, 'Claude Code hooks: partly connected');
    assert.deepEqual([line.action?.label, line.action?.command], ['Connect…', 'connectAgent']);
    const icons = new Set((['connected', 'partial', 'disconnected', 'none'] as const).map((state) => agentHooksLine(hooks(state)).icon));
    assert.equal(icons.size, 4, 'each state has its own icon, so none relies on colour');
  });

  it('names an agent without such hooks and how to continue, and offers nothing to connect', () => {
    const line = agentHooksLine(hooks('none', 'Codex CLI', 'codex resume <fork id>'));
    assert.equal(line.text, 'Codex CLI has no compaction hooks: compact here with Compact…, then continue the fork with `codex resume <fork id>`');
    assert.equal(line.action, undefined);
  });
});
