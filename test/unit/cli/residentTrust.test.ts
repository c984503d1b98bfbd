import assert from 'node:assert/strict';
import { chmodSync, chownSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AGENTS, agentEnvNames } from '../../../src/sessions/agents';
import { readReply, RESIDENT_ENV_NAMES, residentEnv, residentKeyPath, residentSocketPath, SOCKET_PATH_MAX_BYTES } from '../../../src/contracts/resident';
import { ownPlace, trustedKey } from '../../../src/cli/residentTrust';
import { tempDir } from '../../support/tempDir';

/** Another local user, for the cases only root can set up (a file of someone else's). */
const OTHER_UID = 65534;
const asRoot = { skip: process.getuid?.() !== 0 ? 'needs root to give a file to another user' : false };

const servers: Server[] = [];
after(() => servers.forEach((server) => server.close()));

/** A reader's place as the server leaves it: a 0700 folder, its socket, the key beside it (0600). */
async function readerPlace(): Promise<{ folder: string; socket: string }> {
  const folder = join(tempDir('cl-trust-'), 'run');
  mkdirSync(folder, { mode: 0o700 });
  const socket = join(folder, 'r.sock');
  const server = createServer();
  servers.push(server);
  await new Promise<void>((settle) => server.listen(socket, settle));
  writeFileSync(residentKeyPath(socket), 'k'.repeat(64), { mode: 0o600 });
  return { folder, socket };
}

const hostile = (socket: string): string => {
  const trust = trustedKey(socket);
  assert.ok(!('key' in trust), `trusted ${socket}`);
  assert.equal(trust.hostile, true, trust.reason);
  return trust.reason;
};

describe("what the resident reader's client trusts", () => {
  it("the user's own socket in the user's own closed folder, with a private key beside it", async () => {
    const { socket } = await readerPlace();
    assert.deepEqual(trustedKey(socket), { key: 'k'.repeat(64) });
  });

  it('quietly nothing where there is nothing yet: no folder, no socket, no key', async () => {
    const { folder } = await readerPlace();
    for (const path of [join(folder, 'missing', 'r.sock'), join(folder, 'other.sock')])
      assert.equal((trustedKey(path) as { hostile: boolean }).hostile, false, path);
    const keyless = join(folder, 'keyless.sock');
    const server = createServer();
    servers.push(server);
    await new Promise<void>((settle) => server.listen(keyless, settle));
    assert.equal((trustedKey(keyless) as { hostile: boolean }).hostile, false);
  });

  it('never a folder open to others, a linked folder, a file for a socket, a shared or linked key, a relative or overlong path', async () => {
    const open = await readerPlace();
    chmodSync(open.folder, 0o777);
    assert.match(hostile(open.socket), /is open to other users \(mode 777\)/);
    const linked = await readerPlace();
    const link = join(linked.folder, '..', 'link');
    symlinkSync(linked.folder, link);
    assert.match(hostile(join(link, 'r.sock')), /is a link/);
    const file = await readerPlace();
    writeFileSync(join(file.folder, 'f.sock'), '');
    assert.match(hostile(join(file.folder, 'f.sock')), /is not a socket/);
    const shared = await readerPlace();
    chmodSync(residentKeyPath(shared.socket), 0o644);
    assert.match(hostile(shared.socket), /is open to other users/);
    const linkedKey = await readerPlace();
    const elsewhere = join(linkedKey.folder, '..', 'key');
    writeFileSync(elsewhere, 'k'.repeat(64), { mode: 0o600 });
    const keyPath = residentKeyPath(linkedKey.socket);
    // Replaced by a link to a key of the right shape: the link itself is refused.
    rmSync(keyPath);
    symlinkSync(elsewhere, keyPath);
    assert.match(hostile(linkedKey.socket), /ELOOP/);
    assert.match(hostile('run/r.sock'), /not absolute/);
    assert.match(hostile(`/${'x'.repeat(SOCKET_PATH_MAX_BYTES)}.sock`), /longer than/);
  });

  it("never another user's folder, socket or key", asRoot, async () => {
    const folder = await readerPlace();
    chownSync(folder.folder, OTHER_UID, OTHER_UID);
    assert.match(hostile(folder.socket), new RegExp(`belongs to user ${OTHER_UID}`));
    const socket = await readerPlace();
    chownSync(socket.socket, OTHER_UID, OTHER_UID);
    assert.match(hostile(socket.socket), new RegExp(`r.sock belongs to user ${OTHER_UID}`));
    const key = await readerPlace();
    chownSync(residentKeyPath(key.socket), OTHER_UID, OTHER_UID);
    assert.match(hostile(key.socket), new RegExp(`key belongs to user ${OTHER_UID}`));
  });

  it('knows which file system it sees', () => {
    const place = ownPlace();
    const root = statSync('/');
    assert.equal(place.root, `${root.dev}:${root.ino}`);
    if (process.platform === 'linux') assert.match(place.mnt, /^mnt:\[\d+\]$/);
  });
});

describe("where the resident reader's socket goes", () => {
  const uid = process.getuid?.() ?? 0;
  it('the runtime folder where it is the user own and closed, else the cache; never a name known in advance in the temp folder', () => {
    const runtime = tempDir('cl-xdg-');
    chmodSync(runtime, 0o700);
    assert.equal(residentSocketPath({ XDG_RUNTIME_DIR: runtime, CONTEXT_LENS_CACHE: '/c' }, 42), join(runtime, 'context-lens', '42.sock'));
    chmodSync(runtime, 0o755);
    assert.equal(residentSocketPath({ XDG_RUNTIME_DIR: runtime, CONTEXT_LENS_CACHE: '/c' }, 42), '/c/run/42.sock');
    assert.equal(residentSocketPath({ XDG_RUNTIME_DIR: 'relative', CONTEXT_LENS_CACHE: '/c' }, 42), '/c/run/42.sock');
    assert.equal(residentSocketPath({ XDG_RUNTIME_DIR: join(runtime, 'missing'), CONTEXT_LENS_CACHE: '/c' }, 42), '/c/run/42.sock');
    // A home of 86 characters and no runtime folder: no path here at all (the host makes a folder of its own).
    const home = `/home/${'h'.repeat(80)}`;
    assert.equal(residentSocketPath({ HOME: home, XDG_CACHE_HOME: join(home, '.cache') }, 4_194_304), undefined);
    assert.ok(!String(residentSocketPath({ XDG_CACHE_HOME: `/${'c'.repeat(120)}` }, 1)).includes(`context-lens-${uid}`));
  });
});

describe('the variables a client sends', () => {
  // Every variable the CLI's commands read by name: each must be sent, or be on this list of those
  // inspect and sessions do not read (what another command, or the loader, reads).
  const NOT_READ_BY_INSPECT_OR_SESSIONS = new Set([
    'ANTHROPIC_API_KEY',
    'ANTHROPIC_BASE_URL',
    'GOOGLE_GEMINI_BASE_URL',
    'CONTEXT_LENS_RESIDENT',
    'CONTEXT_LENS_STATUSLINE_COST',
    'CONTEXT_LENS_STATUSLINE_CACHE',
    'CONTEXT_LENS_CONNECT',
    'CONTEXT_LENS_KEY',
    'CONTEXT_LENS_WRITER',
    'XDG_RUNTIME_DIR',
    'NODE_COMPILE_CACHE',
  ]);
  const files = (folder: string): string[] =>
    readdirSync(folder, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts'))
      .map((name) => join(folder, name));

  it("name no agent here: each agent's own come from its adapter, through the registry", () => {
    const agents = agentEnvNames();
    for (const adapter of AGENTS) {
      const own = [...(adapter.home.env ? [adapter.home.env] : []), ...(adapter.home.otherEnv ?? [])];
      for (const name of own) assert.ok(agents.includes(name), `${adapter.id}: ${name}`);
      for (const name of own) assert.ok(!RESIDENT_ENV_NAMES.has(name), `${name} (${adapter.id}'s) is listed in the contract too`);
    }
    // What the client keeps of a terminal's environment, given the names a server listed.
    const env = { HOME: '/h', KILO_DB: '/k', ANTHROPIC_API_KEY: 'secret', OPENAI_API_KEY: 'secret' };
    assert.deepEqual(residentEnv(env, agents), { HOME: '/h', KILO_DB: '/k' });
    assert.deepEqual(residentEnv(env), { HOME: '/h' });
  });

  it("takes a server's list of names only whole and well-formed", () => {
    const hello = (env: unknown): string => JSON.stringify({ hello: 'k', env });
    assert.deepEqual(readReply(hello(['KILO_DB', 'CODEX_HOME'])), { hello: 'k', env: ['KILO_DB', 'CODEX_HOME'] });
    for (const bad of [
      ['KILO_DB', 'OPENAI_API_KEY'],
      ['GITHUB_TOKEN'],
      ['KILO_DB', 'not a name'],
      ['__proto__x', 7],
      Array.from({ length: 65 }, (_, i) => `N${i}`),
      'KILO_DB',
      { KILO_DB: 1 },
    ])
      assert.deepEqual(readReply(hello(bad)), { hello: 'k' }, JSON.stringify(bad));
  });

  it('are every one the sessions and CLI code reads by name, and nothing else', () => {
    const src = join(__dirname, '..', '..', '..', 'src');
    const read = new Set<string>();
    for (const file of [
      ...files(join(src, 'sessions')),
      ...files(join(src, 'cli')),
      ...files(join(src, 'engine')),
      ...files(join(src, 'contracts')),
      ...files(join(src, 'base')),
    ]) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/\benv(?:\?\.|\.|\[')([A-Z][A-Z0-9_]+)|\benv: '([A-Z][A-Z0-9_]+)'|_ENV = '([A-Z][A-Z0-9_]+)'/g))
        read.add((match[1] ?? match[2] ?? match[3])!);
    }
    const sent = new Set([...RESIDENT_ENV_NAMES, ...agentEnvNames()]);
    const missing = [...read].filter((name) => !sent.has(name) && !NOT_READ_BY_INSPECT_OR_SESSIONS.has(name));
    assert.deepEqual(missing, [], 'read by the code but neither sent nor listed as not needed');
    for (const name of sent) if (name !== 'TZ') assert.ok(read.has(name), `${name} is sent but nothing reads it`);
  });
});
