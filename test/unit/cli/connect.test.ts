import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { run } from './support';
import { tempDir } from '../../support/tempDir';

function project(settings?: string): { dir: string; file: string } {
  const dir = tempDir('cl-connect-');
  const file = join(dir, '.claude', 'settings.local.json');
  if (settings !== undefined) {
    mkdirSync(join(dir, '.claude'));
    writeFileSync(file, settings, { mode: 0o640 });
  }
  return { dir, file };
}

describe('ctxlens connect / disconnect', () => {
  it('prints the diff and writes nothing with --dry-run', async () => {
    const { dir, file } = project();
    const result = await run(['connect', dir, '--dry-run'], { XDG_STATE_HOME: tempDir('cl-state-') });
    assert.equal(result.code, 0, result.err);
    assert.match(result.out, /^\+\s+"PreCompact": \[/m);
    assert.match(result.out, /hook session-start/);
    assert.match(result.out, /Dry run: nothing written\.\n$/);
    assert.equal(existsSync(file), false);
  });

  it("connects beside the person's settings, keeps the file mode, and disconnects back byte for byte", async () => {
    const original =
      '{\n  "permissions": { "allow": ["Bash(ls:*)"] }, // mine\n  "cleanupPeriodDays": 12345678901234567890,\n  "hooks": {"PreCompact": [{"hooks": [{"type": "command", "command": "notify.sh && \\"/usr/bin/node\\" \\"/x/cli.js\\" hook pre-compact"}]}]}\n}\n';
    const { dir, file } = project(original);
    const env = { XDG_STATE_HOME: tempDir('cl-state-') };
    const connected = await run(['connect', dir], env);
    assert.equal(connected.code, 0, connected.err);
    assert.match(connected.out, /Wrote .*settings\.local\.json\nThe previous content is in .*settings-backups.*\nWrote .*\.mcp\.json\n$/);
    const text = readFileSync(file, 'utf8');
    assert.ok(text.startsWith(original.slice(0, original.indexOf('"hooks"'))), "the person's text is untouched");
    assert.match(text, /notify\.sh && /);
    assert.match(text, /CONTEXT_LENS_CONNECT=1 .*statusline\.js/);
    assert.equal(statSync(file).mode & 0o777, 0o640);

    assert.match((await run(['connect', dir], env)).out, /^Already connected/);
    const disconnected = await run(['disconnect', dir], env);
    assert.equal(disconnected.code, 0, disconnected.err);
    assert.match(disconnected.out, /The previous content is in /);
    assert.equal(readFileSync(file, 'utf8'), original);
    assert.match((await run(['disconnect', dir], env)).out, /^Not connected/);
  });

  it('removes the file it created, and refuses to write through a symlink', async () => {
    const env = { XDG_STATE_HOME: tempDir('cl-state-') };
    const { dir, file } = project();
    assert.equal((await run(['connect', dir], env)).code, 0);
    assert.ok(existsSync(file));
    assert.match((await run(['disconnect', dir], env)).out, /Removed .*Connect had created it/);
    assert.equal(existsSync(join(dir, '.claude')), false);

    const linked = project();
    const real = join(tempDir('cl-dotfiles-'), 'settings.json');
    writeFileSync(real, '{}\n');
    mkdirSync(join(linked.dir, '.claude'));
    symlinkSync(real, linked.file);
    const refused = await run(['connect', linked.dir], env);
    assert.notEqual(refused.code, 0);
    assert.match(
      refused.err,
      new RegExp(`${linked.file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is a symbolic link to ${real.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    );
    assert.ok(lstatSync(linked.file).isSymbolicLink());
    assert.equal(readFileSync(real, 'utf8'), '{}\n');
    assert.equal(existsSync(join(linked.dir, '.mcp.json')), false, 'the other file is not written either');
  });

  it('creates the .claude folder 0700 and the file 0600 whatever the umask', async () => {
    const env = { XDG_STATE_HOME: tempDir('cl-state-') };
    const { dir, file } = project();
    const previous = process.umask(0);
    try {
      assert.equal((await run(['connect', dir], env)).code, 0);
    } finally {
      process.umask(previous);
    }
    assert.equal(statSync(join(dir, '.claude')).mode & 0o777, 0o700);
    assert.equal(statSync(file).mode & 0o777, 0o600);
  });

  it('connects a settings file that starts with a byte order mark, keeps the mark, and disconnects back byte for byte', async () => {
    const original = '\uFEFF{\n  "model": "opus"\n}\n';
    const { dir, file } = project(original);
    const env = { XDG_STATE_HOME: tempDir('cl-state-') };
    const connected = await run(['connect', dir], env);
    assert.equal(connected.code, 0, connected.err);
    assert.ok(readFileSync(file, 'utf8').startsWith('\uFEFF{\n  "model": "opus",'));
    assert.equal((await run(['disconnect', dir], env)).code, 0);
    assert.equal(readFileSync(file, 'utf8'), original);
  });

  it('gives an empty (or blank) settings file back as it was, not as {}', async () => {
    for (const original of ['', '\n  \n']) {
      const { dir, file } = project(original);
      const env = { XDG_STATE_HOME: tempDir('cl-state-') };
      assert.equal((await run(['connect', dir], env)).code, 0);
      assert.match(readFileSync(file, 'utf8'), /hook pre-compact/);
      assert.equal((await run(['disconnect', dir], env)).code, 0);
      assert.equal(readFileSync(file, 'utf8'), original);
      assert.equal(statSync(file).mode & 0o777, 0o640);
    }
  });

  it('refuses a settings file that is a named pipe or /dev/zero at once, naming it', async () => {
    for (const make of [(path: string) => execFileSync('mkfifo', [path]), (path: string) => symlinkSync('/dev/zero', path)]) {
      const { dir, file } = project();
      mkdirSync(join(dir, '.claude'));
      make(file);
      const result = await run(['connect', dir], { XDG_STATE_HOME: tempDir('cl-state-') });
      assert.equal(result.code, 1);
      // A link to /dev/zero is refused as a link, before it is read.
      assert.match(result.err, /Not a regular file \(a named pipe\)|is a symbolic link to \/dev\/zero/);
    }
  });

  it("registers the MCP server in .mcp.json beside the person's servers, and disconnect gives the file back byte for byte", async () => {
    const env = { XDG_STATE_HOME: tempDir('cl-state-') };
    const { dir } = project();
    const mcp = join(dir, '.mcp.json');
    const theirs = '{\n  // the team\'s servers\n  "mcpServers": {\n    "docs": { "command": "docs-server", "args": [] }\n  }\n}\n';
    writeFileSync(mcp, theirs);
    const connected = await run(['connect', dir], env);
    assert.equal(connected.code, 0, connected.err);
    const entry = (JSON.parse(readFileSync(mcp, 'utf8').replace(/^\s*\/\/.*$/m, '')) as { mcpServers: Record<string, { command: string; args: string[] }> })
      .mcpServers;
    assert.deepEqual(Object.keys(entry), ['docs', 'context-lens']);
    assert.match(entry['context-lens']?.args[0] ?? '', /cli\.js$/);
    assert.equal(entry['context-lens']?.args[1], 'mcp');
    assert.ok(readFileSync(mcp, 'utf8').includes("// the team's servers"));
    assert.equal((await run(['disconnect', dir], env)).code, 0);
    assert.equal(readFileSync(mcp, 'utf8'), theirs);
  });

  it('connects the hooks even when .mcp.json cannot be read as JSON, and says so', async () => {
    const { dir, file } = project();
    writeFileSync(join(dir, '.mcp.json'), '{ "mcpServers": ');
    const result = await run(['connect', dir], { XDG_STATE_HOME: tempDir('cl-state-') });
    assert.equal(result.code, 0, result.err);
    assert.match(result.err, /\.mcp\.json was left alone: it is not valid JSON/);
    assert.match(readFileSync(file, 'utf8'), /hook pre-compact/);
    assert.equal(readFileSync(join(dir, '.mcp.json'), 'utf8'), '{ "mcpServers": ');
  });

  it('refuses a settings file it cannot read as JSON, leaving it as it was', async () => {
    const { dir, file } = project('{ "permissions": ');
    const result = await run(['connect', dir]);
    assert.equal(result.code, 1);
    assert.match(result.err, /was left alone: it is not valid JSON/);
    assert.equal(readFileSync(file, 'utf8'), '{ "permissions": ');
  });

  it('--agent names the agent to connect: Claude Code and Codex work, an MCP server for Codex and unknown ids are usage errors', async () => {
    const { dir } = project();
    const dryRun = await run(['connect', dir, '--agent', 'claude-code', '--dry-run']);
    assert.equal(dryRun.code, 0, dryRun.err);
    assert.match(dryRun.out, /hook pre-compact/);
    const codex = await run(['connect', '--workspace', dir, '--agent', 'codex', '--dry-run']);
    assert.equal(codex.code, 0, codex.err);
    assert.match(codex.out, /hook session-start --agent codex/);
    assert.equal((await run(['connect', dir, '--workspace', dir, '--agent', 'codex'])).code, 2, 'the folder named twice');
    assert.equal((await run(['mcp', '--print-config', '--agent', 'codex'])).code, 2);
    assert.equal((await run(['disconnect', dir, '--agent', 'nobody'])).code, 2);
    assert.equal(existsSync(join(dir, '.claude')), false);
  });

  it('treats extra arguments and unknown flags as usage errors', async () => {
    assert.equal((await run(['connect', 'a', 'b'])).code, 2);
    assert.equal((await run(['disconnect', '--force'])).code, 2);
  });
});
