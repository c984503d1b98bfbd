// `ctxlens inspect FILE` reads one session: the shipped bundle opens the session file once, from
// telling which agent wrote it to pricing its calls (the file is held open meanwhile,
// sessions/handle/heldFile.ts). Counted by a preload that sees every way Node opens a file.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { eachShippedPass } from '../support/shippedCli';
import { tempDir } from '../support/tempDir';

const FIXTURES = join(__dirname, '..', 'fixtures');
const SESSIONS = {
  'Claude Code': join(FIXTURES, 'claude-code', 'demo', 'projects', '-home-user-payments-demo', '1184e54e-cc88-4ddf-ba37-ec450f40e74c.jsonl'),
  'Codex CLI': join(FIXTURES, 'codex', 'tally', 'sessions', '2026', '11', '23', 'rollout-2026-11-23T22-17-45-01a20a7c-91ba-7042-b356-3b768f64638e.jsonl'),
  'Gemini CLI': join(FIXTURES, 'gemini', 'recorded', 'resume', 'gemini', 'tmp', 'cli-tool', 'chats', 'session-2026-11-25T22-24-a3d3c3e6.jsonl'),
};

/**
 * Counts the opens of COUNT_OPENS_PATH through every fs entry point that opens (callbacks, sync,
 * promises, streams, whole-file reads) and writes the count to COUNT_OPENS_OUT at exit.
 */
const PRELOAD = `
const fs = require('node:fs');
const { resolve } = require('node:path');
const target = process.env.COUNT_OPENS_PATH;
const out = process.env.COUNT_OPENS_OUT;
const writeFileSync = fs.writeFileSync;
let opens = 0;
const counted = (object, name) => {
  const original = object[name];
  object[name] = function (path, ...rest) {
    if (typeof path === 'string' && resolve(path) === target) opens++;
    return original.call(this, path, ...rest);
  };
};
for (const name of ['open', 'openSync', 'readFile', 'readFileSync', 'createReadStream', 'copyFile', 'copyFileSync', 'cp', 'cpSync']) counted(fs, name);
for (const name of ['open', 'readFile', 'copyFile', 'cp']) counted(fs.promises, name);
process.on('exit', () => writeFileSync(out, String(opens)));
`;

describe('ctxlens inspect FILE', () => {
  it('opens the session file once (Claude Code, Codex CLI, Gemini CLI), in every shipped pass', async () => {
    const dir = tempDir('cl-opens-');
    const preload = join(dir, 'count-opens.cjs');
    writeFileSync(preload, PRELOAD);
    await eachShippedPass(async (pass) => {
      for (const [agent, path] of Object.entries(SESSIONS)) {
        const out = join(dir, `${agent.replace(/\W/g, '')}-${pass.runtime.version}-${pass.pass}.count`);
        const run = await pass.run(['inspect', path], { preload, env: { ...process.env, COUNT_OPENS_PATH: resolve(path), COUNT_OPENS_OUT: out } });
        assert.equal(run.code, 0, `${agent}: ${run.stderr}`);
        assert.match(run.stdout, /Cost \(prices/, `${agent}: the whole report, costs included`);
        assert.equal(Number(readFileSync(out, 'utf8')), 1, `${agent} (${pass.label}): opens of ${path}`);
      }
    });
  });
});
