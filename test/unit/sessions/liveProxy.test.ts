// How `ctxlens run` points each agent's CLI at the proxy for one command: from the person's own
// configuration, which is only read, with the agent's path kept and its origin the proxy's.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { AGENTS } from '../../../src/sessions/agents';
import { codexLiveProxy } from '../../../src/sessions/codex/liveProxy';
import { opencodeLiveProxy } from '../../../src/sessions/opencode/liveProxy';
import { geminiLiveProxy } from '../../../src/sessions/gemini/liveProxy';
import { tempDir } from '../../support/tempDir';

const PROXY = 'http://127.0.0.1:4321';

describe('live proxy pointing', () => {
  it("Codex: its own provider's base_url overridden by -c, the upstream where it pointed; the built-in one by openai_base_url; config.toml untouched", () => {
    const home = tempDir('cl-codex-point-');
    const toml =
      'model = "gpt-5.5"\nmodel_provider = "corp"\n\n[model_providers.corp]\nname = "Corp"\nbase_url = "https://llm.corp.example/openai/v1"\nwire_api = "responses"\n';
    writeFileSync(join(home, 'config.toml'), toml);
    const pointed = codexLiveProxy.point(PROXY, { CODEX_HOME: home }, ['exec', 'hi']);
    assert.ok(pointed.ok);
    assert.deepEqual(pointed.value.args, ['-c', 'model_providers.corp.base_url="http://127.0.0.1:4321/openai/v1"']);
    assert.equal(pointed.value.upstream, 'https://llm.corp.example');
    assert.equal(readFileSync(join(home, 'config.toml'), 'utf8'), toml);
    const builtIn = codexLiveProxy.point(PROXY, { CODEX_HOME: tempDir('cl-codex-none-') }, ['exec', 'hi']);
    assert.ok(builtIn.ok);
    assert.deepEqual(builtIn.value.args, ['-c', 'openai_base_url="http://127.0.0.1:4321/v1"']);
    assert.equal(builtIn.value.upstream, 'https://api.openai.com');
    // A provider chosen on the command line without a base_url: refused, saying why.
    const unknown = codexLiveProxy.point(PROXY, { CODEX_HOME: home }, ['-c', 'model_provider=other', 'exec', 'hi']);
    assert.ok(!unknown.ok);
    assert.match(unknown.error, /'other' has no base_url/);
  });

  it("OpenCode: the model's provider gets the proxy as baseURL in OPENCODE_CONFIG_CONTENT, the person's own content kept", () => {
    const root = tempDir('cl-opencode-point-');
    mkdirSync(join(root, 'config', 'opencode'), { recursive: true });
    const inline = JSON.stringify({
      model: 'fake/fake-model',
      share: 'disabled',
      provider: { fake: { npm: '@ai-sdk/openai-compatible', options: { baseURL: 'http://127.0.0.1:9999/v1', apiKey: 'x' } } },
    });
    const pointed = opencodeLiveProxy.point(PROXY, { XDG_CONFIG_HOME: join(root, 'config'), HOME: root, OPENCODE_CONFIG_CONTENT: inline }, ['run', 'hi']);
    assert.ok(pointed.ok, pointed.ok ? '' : pointed.error);
    const layered = JSON.parse(pointed.value.env.OPENCODE_CONFIG_CONTENT ?? '{}') as {
      share: string;
      provider: { fake: { options: { baseURL: string; apiKey: string } } };
    };
    assert.equal(layered.share, 'disabled');
    assert.deepEqual(layered.provider.fake.options, { baseURL: 'http://127.0.0.1:4321/v1', apiKey: 'x' });
    assert.equal(pointed.value.upstream, 'http://127.0.0.1:9999');
    assert.equal(pointed.value.format, 'openai-chat');
    const none = opencodeLiveProxy.point(PROXY, { XDG_CONFIG_HOME: join(root, 'config'), HOME: root }, ['run', 'hi']);
    assert.ok(!none.ok);
  });

  it('Gemini CLI and Claude Code: their variable, in a command or a new terminal; every agent has a way', () => {
    const gemini = geminiLiveProxy.terminalEnv?.(PROXY, {});
    assert.deepEqual(gemini?.env, { GOOGLE_GEMINI_BASE_URL: PROXY });
    assert.equal(gemini?.upstream, 'https://generativelanguage.googleapis.com');
    assert.deepEqual(
      AGENTS.filter((adapter) => ['claude-code', 'codex', 'gemini', 'opencode'].includes(adapter.id) && adapter.liveProxy === undefined).map(
        (adapter) => adapter.id,
      ),
      [],
    );
  });
});
