// Waiting for a workspace's first Gemini CLI chat: neither the project folder nor its name exists
// when waiting starts; the chat is announced once it holds a prompt (not while it is a stub).
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { waitForGeminiSession } from '../../../../src/sessions/gemini/sessionWaiter';
import type { SessionInfo } from '../../../../src/sessions/types';
import { HEADER, lines, sessionContext, user } from './syntheticChat';

describe('waitForGeminiSession', () => {
  const temp = mkdtempSync(join(tmpdir(), 'cl-gemini-wait-'));
  after(() => rmSync(temp, { recursive: true, force: true }));

  it('finds the chat once projects.json names the workspace and the chat holds a prompt', async () => {
    const geminiDir = join(temp, '.gemini');
    const workspace = join(temp, 'work');
    mkdirSync(workspace);
    const found: SessionInfo[] = [];
    const waiter = await waitForGeminiSession(
      [geminiDir],
      workspace,
      (session) => found.push(session),
      () => undefined,
      { pollMs: 20 },
    );
    try {
      mkdirSync(join(geminiDir, 'tmp', 'work', 'chats'), { recursive: true });
      writeFileSync(join(geminiDir, 'projects.json'), JSON.stringify({ projects: { [workspace]: 'work' } }));
      const chat = join(geminiDir, 'tmp', 'work', 'chats', 'session-2026-11-25T10-00-0badc0de.jsonl');
      writeFileSync(chat, lines([HEADER, sessionContext()]));
      await new Promise((resolve) => setTimeout(resolve, 150));
      assert.equal(found.length, 0, 'a stub is no session yet');
      appendFileSync(chat, lines([user('u1', 'start here')]));
      for (let tries = 0; tries < 100 && found.length === 0; tries++) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.deepEqual(
        found.map((session) => [session.path, session.title, session.cwd]),
        [[chat, 'start here', workspace]],
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(found.length, 1, 'announced once');
    } finally {
      waiter.dispose();
    }
  });
});
