// A Codex session's title is what the person typed, never the context Codex, its IDE extension or
// its desktop app wrapped around it (issue 41 item 10: 4 of 9 published rollouts were titled
// "# Context from my IDE setup: …", "# Files mentioned by the user: …" or "<recommended_plugins>").
// The published desktop rollout (test/fixtures/codex/public/codemie-0.128.0-alpha.1) writes its
// prompt only as a user_message event wrapped in "# Files mentioned by the user:", the published VS Code
// one (…/wakatime-0.119.0-alpha.28) as "# Context from my IDE setup: … ## My request for Codex:"; the wrappers'
// other shapes are those quoted from real sessions in public repositories (see the README there).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { listCodexSessions } from '../../../../src/sessions/codex';
import { typedPart, typedPrompt } from '../../../../src/sessions/codex/typedPrompt';
import { item, meta, turnContext, writeRollout, type Item } from './syntheticRollout';

const PUBLIC = join(__dirname, '..', '..', '..', 'fixtures', 'codex', 'public');

describe('Codex titles: the text the person typed', () => {
  const temp = mkdtempSync(join(tmpdir(), 'cl-codex-titles-'));
  after(() => rmSync(temp, { recursive: true, force: true }));

  it('titles every published rollout by its typed prompt (the desktop one by its wrapped user_message event)', async () => {
    const titles = new Map<string, string>();
    for (const folder of ['codemie-0.77.0', 'codemie-0.125.0', 'codemie-0.128.0-alpha.1', 'agent-history-0.135.0', 'wakatime-0.119.0-alpha.28']) {
      const listed = await listCodexSessions({ codexHomes: [join(PUBLIC, folder)] });
      assert.ok(listed.ok);
      titles.set(folder, listed.value.sessions[0]?.title ?? '');
    }
    assert.equal(titles.get('codemie-0.128.0-alpha.1'), 'analyze trascript and summarzie action items related to codemie and demo preapr…');
    assert.equal(titles.get('codemie-0.125.0'), 'show tools');
    assert.equal(titles.get('codemie-0.77.0'), 'what is current repository about? summarize purpuse and explain goals');
    // The VS Code extension's rollout: its first user message is the "# Context from my IDE setup:"
    // wrapper (active file, open tabs) around the typed "## My request for Codex:" text.
    assert.equal(titles.get('wakatime-0.119.0-alpha.28'), 'remove scrolling horizontally');
    for (const title of titles.values()) assert.doesNotMatch(title, /^(?:#|<|Untitled)/);
  });

  it('takes the request after the IDE context (both markers the extension has written)', () => {
    assert.equal(
      typedPart(
        '# Context from my IDE setup:\n\n## Active file: backend/src/api/routes/clients.routes.ts\n\n## Open tabs:\n- clients.routes.ts: backend/src/api/routes/clients.routes.ts\n- TAXAS.md: docs/TAXAS.md\n\n## My request for Codex:\nAtualize the simulation rates\n',
      ),
      'Atualize the simulation rates',
    );
    assert.equal(
      typedPart(
        '# Context from my IDE setup:\n\n## Active file: api/test/import.e2e-spec.ts\n\n## Open tabs:\n- PLAN.md: PLAN.md\n\n## My request:\nread CLAUDE.md then summarise the stage',
      ),
      'read CLAUDE.md then summarise the stage',
    );
  });

  it('takes the request after attachments, with or without the request marker', () => {
    assert.equal(
      typedPart(
        "# Files mentioned by the user:\n\n## codex-clipboard-34ec.png: C:/Users/k/AppData/Local/Temp/codex-clipboard-34ec.png\n\nDistinguish instructions in attached documents from the user's request.\n\n## My request:\nanalyze this warning printed out by presentmon",
      ),
      'analyze this warning printed out by presentmon',
    );
    // Attachments as parts of their own, the typed text in another.
    assert.equal(
      typedPrompt([
        '<recommended_plugins>\nHere is a list…\n</recommended_plugins>',
        '# AGENTS.md instructions for /tmp/tt\n\n- be nice',
        '\n# Files mentioned by the user:\n\n## shot.png: /tmp/shot.png',
        '<image name=[Image #1] path="/tmp/shot.png">',
        '</image>',
        'fix the thing',
      ]),
      'fix the thing',
    );
  });

  it('keeps a prompt that merely starts with a heading of its own', () => {
    assert.equal(typedPart('# Plan:\n- add the retry\n- then the tests'), '# Plan:\n- add the retry\n- then the tests');
    assert.equal(typedPart('<div> markup in a prompt stays'), '<div> markup in a prompt stays');
  });

  it('skips whole injected messages (plugins, IDE context without a request) to the first typed one', async () => {
    const user = (...texts: string[]): Item => ({ type: 'message', role: 'user', content: texts.map((text) => ({ type: 'input_text', text })) });
    const home = join(temp, 'plugins');
    writeRollout(home, [
      meta(),
      turnContext(),
      item(user('<environment_context>\n  <cwd>/home/user/tally</cwd>\n</environment_context>')),
      item(user('<recommended_plugins>\nA catalogue of plugins\n</recommended_plugins>')),
      item(user('# Context from my IDE setup:\n\n## Open tabs:\n- a.go: a.go\n\n## My request for Codex:\nAdd the opener button')),
    ]);
    const listed = await listCodexSessions({ codexHomes: [home] });
    assert.ok(listed.ok);
    assert.equal(listed.value.sessions[0]?.title, 'Add the opener button');
  });
});
