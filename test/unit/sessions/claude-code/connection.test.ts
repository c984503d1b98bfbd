// Connect must never clobber the person's Claude Code settings, and Disconnect must take back exactly
// what Connect added: checked on hand-written files and, as properties, on generated ones.
import assert from 'node:assert/strict';
import { execSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { connect, connectionCommands, connectionState, disconnect, isEmptySettings } from '../../../../src/sessions/claude-code/connection';
import { tempDir } from '../../../support/tempDir';

const commands = connectionCommands({ node: '/usr/bin/node', binDir: '/home/user/.vscode/globalStorage/context-lens/bin/', platform: 'linux' });

function edited(edit: ReturnType<typeof connect>): { text: string; changed: boolean; notes: readonly string[] } {
  assert.ok(edit.ok, edit.ok ? '' : edit.error);
  return edit.value;
}

describe('connection commands', () => {
  it('quotes paths and starts the CLI bundle with node', () => {
    const { direct, ...written } = commands;
    assert.deepEqual(direct, written, 'without the launcher the commands written are the direct ones');
    assert.deepEqual(written, {
      runner: '"/usr/bin/node"',
      preCompact: 'CONTEXT_LENS_CONNECT=1 "/usr/bin/node" "/home/user/.vscode/globalStorage/context-lens/bin/cli.js" hook pre-compact',
      sessionStart: 'CONTEXT_LENS_CONNECT=1 "/usr/bin/node" "/home/user/.vscode/globalStorage/context-lens/bin/cli.js" hook session-start',
      statusLine: 'CONTEXT_LENS_CONNECT=1 "/usr/bin/node" "/home/user/.vscode/globalStorage/context-lens/bin/statusline.js"',
    });
  });

  it('writes Windows paths with forward slashes, which bash and cmd both accept', () => {
    const windows = connectionCommands({
      node: 'C:\\Program Files\\nodejs\\node.exe',
      binDir: 'C:\\Users\\Ann Lee\\AppData\\Roaming\\Code\\User\\globalStorage\\context-lens.context-lens\\bin',
      platform: 'win32',
    });
    assert.equal(
      windows.preCompact,
      'CONTEXT_LENS_CONNECT=1 "C:/Program Files/nodejs/node.exe" "C:/Users/Ann Lee/AppData/Roaming/Code/User/globalStorage/context-lens.context-lens/bin/cli.js" hook pre-compact',
    );
  });

  it('survives a shell on folder names with spaces, quotes, dollars and backticks', () => {
    const binDir = join(tempDir('cl-quote-'), 'my "odd" $HOME `dir` \\ bin');
    mkdirSync(binDir);
    writeFileSync(join(binDir, 'cli.js'), 'process.stdout.write(JSON.stringify(process.argv.slice(1)));');
    const quoted = connectionCommands({ node: process.execPath, binDir, platform: 'linux' });
    const argv = JSON.parse(execSync(quoted.preCompact, { shell: '/bin/sh', encoding: 'utf8' })) as string[];
    assert.deepEqual(argv, [join(binDir, 'cli.js'), 'hook', 'pre-compact']);
  });

  it("runs VS Code's own runtime as Node where no node is installed", () => {
    const electron = connectionCommands({
      node: '/Applications/Visual Studio Code.app/Contents/MacOS/Electron',
      electronRunAsNode: true,
      binDir: '/tmp/bin',
      platform: 'darwin',
    });
    assert.equal(
      electron.statusLine,
      'CONTEXT_LENS_CONNECT=1 ELECTRON_RUN_AS_NODE=1 "/Applications/Visual Studio Code.app/Contents/MacOS/Electron" "/tmp/bin/statusline.js"',
    );
  });
});

describe('connect', () => {
  it('creates the settings with both hooks and the status line when there is no file', () => {
    const { text, changed } = edited(connect(null, commands));
    assert.ok(changed);
    assert.deepEqual(JSON.parse(text), {
      hooks: {
        PreCompact: [{ hooks: [{ type: 'command', command: commands.preCompact }] }],
        SessionStart: [{ matcher: 'compact', hooks: [{ type: 'command', command: commands.sessionStart }] }],
      },
      statusLine: { type: 'command', command: commands.statusLine },
    });
    assert.equal(connectionState(text, commands), 'connected');
  });

  it("adds its own groups beside the person's hooks and keeps their status line", () => {
    const theirs = {
      permissions: { allow: ['Bash(npm test:*)'] },
      hooks: { PreCompact: [{ hooks: [{ type: 'command', command: 'echo mine' }] }], Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }] },
      statusLine: { type: 'command', command: '~/bin/my-status' },
    };
    const { text, notes } = edited(connect(JSON.stringify(theirs), commands));
    const settings = JSON.parse(text) as typeof theirs & { hooks: { SessionStart: unknown[] } };
    assert.deepEqual(settings.permissions, theirs.permissions);
    assert.deepEqual(settings.hooks.Stop, theirs.hooks.Stop);
    assert.deepEqual(settings.hooks.PreCompact, [...theirs.hooks.PreCompact, { hooks: [{ type: 'command', command: commands.preCompact }] }]);
    assert.equal(settings.hooks.SessionStart.length, 1);
    assert.deepEqual(settings.statusLine, theirs.statusLine);
    assert.match(notes.join(' '), /own status line stays/);
  });

  it('is idempotent and says so', () => {
    const once = edited(connect(null, commands)).text;
    const twice = edited(connect(once, commands));
    assert.equal(twice.changed, false);
    assert.equal(twice.text, once);
  });

  it('refuses, and changes nothing, when the file is not a JSON object or hooks are malformed', () => {
    for (const text of ['{ "hooks": ', '[1, 2]', '{"hooks": {"PreCompact": {"command": "x"}}}', '{"hooks": "all"}']) {
      const edit = connect(text, commands);
      assert.equal(edit.ok, false, text);
      assert.match(edit.ok ? '' : edit.error, /was left alone/);
      assert.equal(connectionState(text, commands), 'disconnected');
    }
  });

  it('warns when Claude Code has every hook disabled', () => {
    assert.match(edited(connect('{"disableAllHooks": true}', commands)).notes.join(' '), /disableAllHooks/);
  });
});

describe('a Node.js that moved', () => {
  const before = connectionCommands({
    node: '/home/user/.nvm/versions/node/v20.1.0/bin/node',
    binDir: '/home/user/.vscode/globalStorage/context-lens/bin/',
    platform: 'linux',
  });
  const connectedBefore = edited(connect(null, before)).text;

  it('still counts as connected, and Connect points the entries at the current one', () => {
    assert.equal(connectionState(connectedBefore, commands), 'connected');
    const { text, changed, notes } = edited(connect(connectedBefore, commands));
    assert.ok(changed);
    assert.match(notes.join(' '), /now start "\/usr\/bin\/node"/);
    assert.deepEqual(text, edited(connect(null, commands)).text, 'updated in place, not added twice');
  });

  it('is disconnected all the same', () => {
    assert.ok(isEmptySettings(edited(disconnect(connectedBefore, commands)).text));
  });

  it("leaves alone the same command for another installation's scripts", () => {
    const elsewhere = connectionCommands({ node: '/usr/bin/node', binDir: '/opt/other/bin', platform: 'linux' });
    assert.equal(connectionState(edited(connect(null, elsewhere)).text, commands), 'disconnected');
  });
});

describe('through the ctxlens launcher', () => {
  const launcher = connectionCommands({
    node: '/usr/bin/node',
    binDir: '/home/user/.vscode/globalStorage/context-lens/bin/',
    platform: 'linux',
    viaLauncher: true,
  });

  it('names the launcher, no Node.js path, the status line by its own command', () => {
    assert.equal(launcher.preCompact, 'CONTEXT_LENS_CONNECT=1 ctxlens hook pre-compact');
    assert.equal(launcher.sessionStart, 'CONTEXT_LENS_CONNECT=1 ctxlens hook session-start');
    assert.equal(launcher.statusLine, 'CONTEXT_LENS_CONNECT=1 ctxlens statusline');
  });

  it('re-points entries written with a Node.js path at the launcher and back, never adding a second one', () => {
    const direct = edited(connect(null, commands)).text;
    const viaLauncher = edited(connect(null, launcher)).text;
    assert.equal(connectionState(direct, launcher), 'connected');
    assert.equal(connectionState(viaLauncher, commands), 'connected');
    assert.equal(edited(connect(direct, launcher)).text, viaLauncher);
    assert.equal(edited(connect(viaLauncher, commands)).text, direct);
  });

  it('is disconnected whichever form the file holds', () => {
    for (const form of [commands, launcher]) assert.ok(isEmptySettings(edited(disconnect(edited(connect(null, launcher)).text, form)).text));
  });
});

describe('disconnect', () => {
  it('leaves an empty object where connect created the file (the file level then removes it)', () => {
    const { text } = edited(disconnect(edited(connect(null, commands)).text, commands));
    assert.equal(text, '{}\n');
    assert.ok(isEmptySettings(text));
  });

  it('removes our entry from a group the person added another hook to, and keeps theirs', () => {
    const shared = {
      hooks: {
        PreCompact: [
          {
            hooks: [
              { type: 'command', command: commands.preCompact },
              { type: 'command', command: 'echo mine' },
            ],
          },
        ],
      },
    };
    const { text } = edited(disconnect(JSON.stringify(shared), commands));
    assert.deepEqual(JSON.parse(text), { hooks: { PreCompact: [{ hooks: [{ type: 'command', command: 'echo mine' }] }] } });
  });

  it('reports no change when nothing of ours is there, and reads partial connections', () => {
    assert.equal(edited(disconnect('{"model": "opus"}', commands)).changed, false);
    assert.equal(connectionState(JSON.stringify({ statusLine: { type: 'command', command: commands.statusLine } }), commands), 'partial');
  });
});

const hookEntry = fc.record({ type: fc.constant('command'), command: fc.string({ maxLength: 20 }) });
const group = fc.record(
  { matcher: fc.option(fc.constantFrom('compact', 'startup', '*', 'Bash'), { nil: undefined }), hooks: fc.array(hookEntry, { maxLength: 3 }) },
  { requiredKeys: ['hooks'] },
);
const theirSettings = fc
  .record(
    {
      permissions: fc.record({ allow: fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }) }),
      model: fc.string({ maxLength: 10 }),
      hooks: fc.dictionary(fc.constantFrom('PreCompact', 'SessionStart', 'Stop', 'PostToolUse'), fc.array(group, { minLength: 1, maxLength: 3 })),
      statusLine: fc.record({ type: fc.constant('command'), command: fc.string({ maxLength: 20 }) }),
    },
    { requiredKeys: [] },
  )
  .filter((settings) => settings.hooks === undefined || Object.keys(settings.hooks).length > 0);

describe('connect / disconnect properties', () => {
  it('disconnect after connect gives back exactly the settings that were there', () => {
    fc.assert(
      fc.property(theirSettings, (settings) => {
        const connected = edited(connect(JSON.stringify(settings), commands)).text;
        assert.equal(connectionState(connected, commands), 'connected');
        assert.deepEqual(JSON.parse(edited(disconnect(connected, commands)).text), JSON.parse(JSON.stringify(settings)));
      }),
      { numRuns: 200, seed: 7 },
    );
  });

  it("connect keeps every entry of the person's settings", () => {
    fc.assert(
      fc.property(theirSettings, (settings) => {
        const connected = JSON.parse(edited(connect(JSON.stringify(settings), commands)).text) as Record<string, unknown> & {
          hooks: Record<string, unknown[]>;
        };
        const plain = JSON.parse(JSON.stringify(settings)) as Record<string, unknown>;
        for (const [key, value] of Object.entries(plain)) if (key !== 'hooks') assert.deepEqual(connected[key], value);
        for (const [event, groups] of Object.entries(settings.hooks ?? {}))
          assert.deepEqual(connected.hooks[event]?.slice(0, groups.length), JSON.parse(JSON.stringify(groups)));
      }),
      { numRuns: 200, seed: 11 },
    );
  });
});

const text = (edit: ReturnType<typeof connect>): string => edited(edit).text;

describe("the person's look-alike commands", () => {
  const theirs = `notify.sh && ${commands.preCompact.replace('CONTEXT_LENS_CONNECT=1 ', '')}`;
  const lookAlikes = [
    theirs,
    `notify.sh && ${commands.preCompact}`,
    `${commands.preCompact} --verbose`,
    `CONTEXT_LENS_CONNECT=1 "/bin/true" && "/usr/bin/node" ${commands.preCompact.split(' ').slice(-3).join(' ')}`,
    commands.preCompact.replace('CONTEXT_LENS_CONNECT=1 ', ''),
  ];

  it('are neither replaced by connect nor removed by disconnect', () => {
    for (const command of lookAlikes) {
      const original = JSON.stringify({ hooks: { PreCompact: [{ hooks: [{ type: 'command', command }] }] } }, null, 2);
      assert.equal(connectionState(original, commands), 'disconnected', command);
      const connected = text(connect(original, commands));
      assert.ok(connected.includes(JSON.stringify(command)), command);
      assert.equal(connectionState(connected, commands), 'connected');
      const disconnected = text(disconnect(connected, commands));
      assert.equal(disconnected, original, command);
      assert.equal(edited(disconnect(original, commands)).changed, false, command);
    }
  });
});

describe("the file's own text", () => {
  const original = [
    '// my local settings',
    '{',
    '    "permissions": {"allow": [ "Bash(ls:*)" ],   "deny":[]},  /* kept */',
    '    "cleanupPeriodDays": 12345678901234567890,',
    '    "ratio": 1.50, "model": "opus", "model": "sonnet",',
    '    "hooks": {',
    '        "Stop": [ { "hooks": [ { "type": "command", "command": "notify-send done" } ] } ], // trailing',
    '    },',
    '}',
  ].join('\r\n');

  it('survives connect byte for byte outside the added entries, and disconnect gives it back', () => {
    const connected = text(connect(original, commands));
    for (const piece of original.split('\r\n').slice(0, 6)) assert.ok(connected.includes(piece), piece);
    assert.ok(connected.includes('12345678901234567890'));
    assert.ok(connected.includes('"model": "opus", "model": "sonnet"'));
    assert.ok(!/[^\r]\n/.test(connected), 'line breaks follow the file (CRLF)');
    assert.ok(connected.includes('\r\n        "PreCompact": [\r\n            {'), 'indented like the file');
    assert.equal(connectionState(connected, commands), 'connected');
    assert.equal(text(disconnect(connected, commands)), original);
  });

  it('keeps empty lists and objects the person had', () => {
    for (const original of ['{"hooks": {}}', '{"hooks": {"PreCompact": [], "SessionStart": [ ]}}', '{\n}', '{ }', '{"hooks": {"PreCompact": [\n]}}']) {
      const connected = text(connect(original, commands));
      assert.equal(connectionState(connected, commands), 'connected', original);
      assert.equal(text(disconnect(connected, commands)), original);
    }
  });

  it('refuses a file where our keys appear twice, since Claude Code reads only the last', () => {
    const edit = connect('{"hooks": {}, "hooks": {"Stop": []}}', commands);
    assert.equal(edit.ok, false);
    assert.match(edit.ok ? '' : edit.error, /"hooks" appears more than once/);
  });

  it('refuses a file nested too deeply to parse, without throwing', () => {
    const deep = `{"a": ${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
    assert.equal(connect(deep, commands).ok, false);
  });
});

// Generated JSONC settings files: comments and odd spacing in every gap, big and odd number
// literals, duplicate keys, trailing commas, CRLF, empty containers and the person's hooks,
// including commands that look like ours.
type Doc = { kind: 'raw'; text: string } | { kind: 'array'; items: Doc[] } | { kind: 'object'; entries: [string, Doc][] };
const raw = (value: unknown): Doc => ({ kind: 'raw', text: JSON.stringify(value) });
const gap = fc.constantFrom('', ' ', '\n', '\n  ', '\n\t\t', '  ', ' /* c */ ', ' // note\n', '\n    // x,y\n    ');

function render(doc: Doc, tape: readonly string[], trailing: boolean): string {
  let at = 0;
  const ws = (): string => (tape.length === 0 ? '' : (tape[at++ % tape.length] as string));
  const list = (open: string, close: string, parts: string[]): string =>
    `${open}${ws()}${parts.join(`${ws()},${ws()}`)}${trailing && parts.length > 0 ? `${ws()},` : ''}${ws()}${close}`;
  const print = (node: Doc): string => {
    if (node.kind === 'raw') return node.text;
    if (node.kind === 'array') return list('[', ']', node.items.map(print));
    return list(
      '{',
      '}',
      node.entries.map(([key, value]) => `${JSON.stringify(key)}${ws()}:${ws()}${print(value)}`),
    );
  };
  return print(doc);
}

const lookAlike = fc.constantFrom(
  `notify.sh && ${commands.preCompact}`,
  `${commands.sessionStart} --quiet`,
  commands.statusLine.replace('CONTEXT_LENS_CONNECT=1 ', ''),
  'echo mine',
  'CONTEXT_LENS_CONNECT=1 ./my-hook',
);
const command = fc.oneof(lookAlike, fc.string({ maxLength: 12 }));
const entry = command.map((text): Doc => ({
  kind: 'object',
  entries: [
    ['type', raw('command')],
    ['command', raw(text)],
  ],
}));
const hookGroup = fc
  .tuple(fc.option(fc.constantFrom('compact', 'startup', '*'), { nil: undefined }), fc.array(entry, { maxLength: 2 }))
  .map(([matcher, entries]): Doc => ({
    kind: 'object',
    entries: [...(matcher === undefined ? [] : [['matcher', raw(matcher)] as [string, Doc]]), ['hooks', { kind: 'array', items: entries }]],
  }));
const hooksDoc = fc
  .uniqueArray(fc.constantFrom('PreCompact', 'SessionStart', 'Stop', 'Notification'), { maxLength: 3 })
  .chain((events) =>
    fc.tuple(...events.map((event) => fc.array(hookGroup, { maxLength: 2 }).map((groups): [string, Doc] => [event, { kind: 'array', items: groups }]))),
  )
  .map((entries): Doc => ({ kind: 'object', entries }));
const number = fc.constantFrom('12345678901234567890', '1.50', '-0', '1e400', '0.1000', '7');
const other = fc.tuple(
  fc.constantFrom('model', 'permissions', 'env', 'cleanupPeriodDays', 'x'),
  fc.oneof(
    number.map((text): Doc => ({ kind: 'raw', text })),
    fc.string({ maxLength: 8 }).map(raw),
    fc.constant<Doc>({ kind: 'array', items: [] }),
    fc.constant<Doc>({ kind: 'object', entries: [] }),
  ),
);
const settingsDoc = fc
  .tuple(fc.array(other, { maxLength: 4 }), fc.option(hooksDoc, { nil: undefined }), fc.option(command, { nil: undefined }), fc.array(other, { maxLength: 2 }))
  .map(([before, hooks, statusLine, after]): Doc => ({
    kind: 'object',
    entries: [
      ...before,
      ...(hooks === undefined ? [] : [['hooks', hooks] as [string, Doc]]),
      ...(statusLine === undefined
        ? []
        : [
            [
              'statusLine',
              {
                kind: 'object',
                entries: [
                  ['type', raw('command')],
                  ['command', raw(statusLine)],
                ],
              },
            ] as [string, Doc],
          ]),
      ...after,
    ],
  }));
const settingsText = fc
  .tuple(
    settingsDoc,
    fc.array(gap, { maxLength: 12 }),
    fc.boolean(),
    fc.boolean(),
    fc.constantFrom('', '\n', '\n\n', ' // end\n'),
    fc.constantFrom('', '// head\n', '\n'),
  )
  .map(([doc, tape, trailing, crlf, tail, head]) => {
    const body = `${head}${render(doc, tape, trailing)}${tail}`;
    return crlf ? body.replace(/\n/g, '\r\n') : body;
  });

describe('connect / disconnect on generated JSONC text', () => {
  it('disconnect(connect(x)) is x byte for byte, and connect is idempotent', () => {
    fc.assert(
      fc.property(settingsText, (original) => {
        const connected = text(connect(original, commands));
        assert.equal(connectionState(connected, commands), 'connected');
        const again = edited(connect(connected, commands));
        assert.equal(again.changed, false);
        assert.equal(again.text, connected);
        assert.equal(text(disconnect(connected, commands)), original);
      }),
      { numRuns: 1000, seed: 12 },
    );
  });
});
