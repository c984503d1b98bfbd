import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type * as vscode from 'vscode';
import { TerminalEnvironment } from '../../../src/host/terminalEnvironment';

/** The part of VS Code's collection the class uses, recording what it is told. */
function fakeCollection() {
  const variables = new Map<string, string>([['LEFT_BY_AN_OLDER_VERSION', 'x']]);
  const collection = {
    persistent: true,
    description: undefined as string | undefined,
    replace: (name: string, value: string) => void variables.set(name, value),
    delete: (name: string) => void variables.delete(name),
    clear: () => variables.clear(),
  };
  return { variables, collection, typed: collection as unknown as vscode.GlobalEnvironmentVariableCollection };
}

describe('TerminalEnvironment', () => {
  it('starts clean and unpersisted, and one variable going leaves the others and their words', () => {
    const { variables, collection, typed } = fakeCollection();
    const terminals = new TerminalEnvironment(typed);
    assert.equal(collection.persistent, false);
    assert.deepEqual([...variables], []);
    terminals.set('ANTHROPIC_BASE_URL', 'http://127.0.0.1:1234', 'Through the proxy.');
    terminals.set('CONTEXT_LENS_RESIDENT', '/run/1.sock', 'Answered by the reader.');
    assert.equal(collection.description, 'Through the proxy. Answered by the reader.');
    terminals.delete('ANTHROPIC_BASE_URL');
    assert.deepEqual([...variables], [['CONTEXT_LENS_RESIDENT', '/run/1.sock']]);
    assert.equal(collection.description, 'Answered by the reader.');
    terminals.delete('ANTHROPIC_BASE_URL');
    terminals.delete('CONTEXT_LENS_RESIDENT');
    assert.deepEqual([...variables], []);
    assert.equal(collection.description, undefined);
  });
});
