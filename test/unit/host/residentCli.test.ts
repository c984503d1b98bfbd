import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type * as vscode from 'vscode';
import { RESIDENT_ENV } from '../../../src/contracts/resident';
import { trustedKey } from '../../../src/cli/residentTrust';
import { ResidentCli } from '../../../src/host/ResidentCli';
import type { SettingsWatcher } from '../../../src/host/settings';
import { TerminalEnvironment } from '../../../src/host/terminalEnvironment';
import { buildCliBundles } from '../../support/cliBundle';

/** What the terminals were told, and whether the socket named was served at that very moment. */
function recordingTerminals() {
  const told: Array<{ value: string | undefined; servedThen: boolean }> = [];
  const collection = {
    persistent: true,
    description: undefined as string | undefined,
    replace: (name: string, value: string) => {
      if (name === RESIDENT_ENV) told.push({ value, servedThen: 'key' in trustedKey(value) });
    },
    delete: (name: string) => {
      if (name === RESIDENT_ENV) told.push({ value: undefined, servedThen: false });
    },
    clear: () => undefined,
  };
  return { told, terminals: new TerminalEnvironment(collection as unknown as vscode.GlobalEnvironmentVariableCollection) };
}

const settings = { current: { residentReader: true }, onDidChange: () => ({ dispose: () => undefined }) } as unknown as SettingsWatcher;
const log = { info: () => undefined, warn: () => undefined } as unknown as vscode.LogOutputChannel;

async function until<T>(what: string, check: () => T | undefined): Promise<T> {
  for (let waited = 0; ; waited += 20) {
    const value = check();
    if (value !== undefined) return value;
    if (waited > 20_000) throw new Error(`${what}: not in 20 s`);
    await new Promise((settle) => setTimeout(settle, 20));
  }
}

describe("the window's resident reader (host/ResidentCli.ts) with the built CLI", () => {
  let extension: string;
  const saved = { cache: process.env.CONTEXT_LENS_CACHE, runtime: process.env.XDG_RUNTIME_DIR };
  before(async () => {
    extension = mkdtempSync(join(tmpdir(), 'cl-rcli-'));
    await buildCliBundles(join(extension, 'dist'));
    delete process.env.XDG_RUNTIME_DIR;
  });
  after(() => {
    for (const [name, value] of [
      ['CONTEXT_LENS_CACHE', saved.cache],
      ['XDG_RUNTIME_DIR', saved.runtime],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rmSync(extension, { recursive: true, force: true });
  });

  async function lifetime(): Promise<{ socket: string; told: Array<{ value: string | undefined; servedThen: boolean }> }> {
    const { told, terminals } = recordingTerminals();
    const resident = new ResidentCli({ fsPath: extension } as vscode.Uri, settings, terminals, log);
    // Nothing is named before the reader serves.
    assert.equal(told.length, 0);
    const socket = await until('the terminals to be told', () => told[0]?.value);
    resident.dispose();
    await until('the socket to go', () => (existsSync(socket) ? undefined : true));
    return { socket, told };
  }

  it('names its socket to the terminals only once it serves there, and takes it back when it stops', async () => {
    process.env.CONTEXT_LENS_CACHE = join(extension, 'cache');
    const { socket, told } = await lifetime();
    assert.equal(socket, join(extension, 'cache', 'run', `${process.pid}.sock`));
    assert.deepEqual(told, [
      { value: socket, servedThen: true },
      { value: undefined, servedThen: false },
    ]);
  });

  it('where no usual place fits a socket, a new folder of a name no one could have made first, removed at the end', async () => {
    process.env.CONTEXT_LENS_CACHE = join(extension, 'c'.repeat(120));
    const { socket, told } = await lifetime();
    assert.equal(dirname(dirname(socket)), tmpdir());
    assert.match(basename(dirname(socket)), /^context-lens-[A-Za-z0-9]{6}$/);
    assert.notEqual(basename(dirname(socket)), `context-lens-${process.getuid?.()}`);
    assert.equal(told[0]?.servedThen, true);
    await until('the folder to go', () => (existsSync(dirname(socket)) ? undefined : true));
    assert.throws(() => statSync(dirname(socket)));
  });
});
