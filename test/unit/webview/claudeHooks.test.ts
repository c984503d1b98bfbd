import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { claudeHooksLine } from '../../../webview/logic/claudeHooks';

describe('Claude Code hooks line', () => {
  it('says connected, with an icon, and offers Disconnect', () => {
    const line = claudeHooksLine('connected');
    assert.equal(line.text, 'Claude Code hooks: connected');
    assert.equal(line.icon, 'plug');
    assert.deepEqual([line.action?.label, line.action?.command], ['Disconnect', 'disconnectClaudeCode']);
  });

  it('says what connecting is for when not connected, and offers Connect', () => {
    const line = claudeHooksLine('disconnected');
    assert.match(line.text, /^Claude Code hooks: not connected — keep your constraints through Claude Code's own compactions$/);
    assert.deepEqual([line.action?.label, line.action?.command], ['Connect…', 'connectClaudeCode']);
  });

  it('offers Connect to complete a partial connection, which has its own words and icon', () => {
    const line = claudeHooksLine('partial');
    assert.equal(line.text, 'Claude Code hooks: partly connected');
    assert.deepEqual([line.action?.label, line.action?.command], ['Connect…', 'connectClaudeCode']);
    const icons = new Set((['connected', 'partial', 'disconnected'] as const).map((state) => claudeHooksLine(state).icon));
    assert.equal(icons.size, 3, 'each state has its own icon, so none relies on colour');
  });

  it('says that Codex has no such hooks for a Codex session, and offers nothing to connect', () => {
    const line = claudeHooksLine('codex');
    assert.match(line.text, /^Codex CLI has no compaction hooks/);
    assert.equal(line.action, undefined);
  });
});
