// The cost and compaction figures of `inspect` as the command ships (the esbuild bundle, run as a
// process) on published sessions: the agent's own compaction with the size after it, a subagent
// that starts from a copy of its parent's history, and a model in neither price source.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildCliBundles, type CliBundles } from '../support/cliBundle';

const PUBLIC = join(__dirname, '..', 'fixtures', 'claude-code', 'public');
let scratch: string;
let bundles: CliBundles;

before(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'cl-cost-shipped-'));
  bundles = await buildCliBundles(join(scratch, 'dist'));
});
after(() => rmSync(scratch, { recursive: true, force: true }));

async function inspect(path: string, json = false): Promise<string> {
  const env = {
    ...process.env,
    CONTEXT_LENS_CACHE: join(scratch, 'cache'),
    XDG_STATE_HOME: join(scratch, 'state'),
    CLAUDE_CONFIG_DIR: join(scratch, 'no-config'),
    NO_COLOR: '1',
  };
  const { stdout } = await promisify(execFile)(process.execPath, [bundles.cli, 'inspect', path, ...(json ? ['--json'] : [])], {
    env,
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

/** A published config folder copied into the scratch folder; the session file's path in it. */
function copied(folder: string, id: string): string {
  const to = join(mkdtempSync(join(scratch, 'config-')), folder);
  cpSync(join(PUBLIC, folder), to, { recursive: true });
  const projects = join(to, 'projects');
  return join(projects, readdirSync(projects)[0] as string, `${id}.jsonl`);
}

describe("inspect (shipped bundle): the agent's own compactions", () => {
  // Neither boundary records a size after it (was "142,431 → ? tokens"): the first call after it measured it.
  for (const [folder, id, text] of [
    ['spotter-2.1.39', 'ae4a77f8-aedd-4bc1-888f-c94edc91af04', 'agent, manual  142,431 → 45,263 tokens'],
    ['codemie-2.0.76', '624a4a58-b34c-462d-a70d-13421c8125a8', 'agent, auto  155,979 → 36,541 tokens'],
  ] as const) {
    it(`${folder}: "${text}", and the same read again from the kept history`, async () => {
      const path = copied(folder, id);
      assert.ok((await inspect(path)).includes(text));
      assert.ok((await inspect(path)).includes(text));
    });
  }
});

describe('inspect (shipped bundle): cost', () => {
  it('a subagent that starts from a copy of the parent history pays and lists its own call only', async () => {
    const path = copied('spotter-2.1.39', 'ae4a77f8-aedd-4bc1-888f-c94edc91af04');
    const before = JSON.parse(await inspect(path, true)) as { cost: { session: { usd: number; calls: number } } };
    // 2.1.111+'s shape: the parent's assistant lines again (same message and request ids), then its own.
    const lines = readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line.includes('"type":"assistant"') && line.includes('"usage"'))
      .slice(0, 21);
    const own = { ...(JSON.parse(lines[0] as string) as { message: object }), uuid: 'own', requestId: 'req_own' };
    own.message = { ...own.message, id: 'msg_own' };
    const folder = join(path.replace(/\.jsonl$/, ''), 'subagents');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, 'agent-aside_question-5ce17f65a1b2c3d4.jsonl'),
      [...lines, JSON.stringify(own)].map((line) => line.replace('"isSidechain":false', '"isSidechain":true')).join('\n') + '\n',
    );
    const report = JSON.parse(await inspect(path, true)) as { cost: { session: { usd: number; calls: number }; subagents: { id: string; calls: number }[] } };
    assert.equal(report.cost.subagents.find((agent) => agent.id.startsWith('agent-aside_question'))?.calls, 1);
    assert.equal(report.cost.session.calls, before.cost.session.calls + 1);
    assert.ok(report.cost.session.usd - before.cost.session.usd < 0.2, `${before.cost.session.usd} → ${report.cost.session.usd}`);
  });

  it('a model in neither price source: "no price", never "$0.00 over N calls"', async () => {
    const path = copied('session-share-2.1.14', '4b2030ed-5563-49ea-b703-6a002f2d3cc8');
    for (const file of [
      path,
      ...readdirSync(join(path.replace(/\.jsonl$/, ''), 'subagents')).map((name) => join(path.replace(/\.jsonl$/, ''), 'subagents', name)),
    ]) {
      writeFileSync(file, readFileSync(file, 'utf8').replaceAll('"claude-opus-4-5-20251101"', '"MiniMax-M2"'));
    }
    const text = await inspect(path);
    assert.match(text, /session {2}no price over \d+ calls: MiniMax-M2/);
    assert.doesNotMatch(text, /\$0\.00 over/);
  });
});
