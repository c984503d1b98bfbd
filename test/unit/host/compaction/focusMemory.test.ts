import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FocusMemory } from '../../../../src/host/compaction/focusMemory';
import type { StateStorage } from '../../../../src/host/context/choices';

function memoryStorage(): StateStorage & { values: Map<string, unknown> } {
  const values = new Map<string, unknown>();
  return { values, get: <T>(key: string) => values.get(key) as T | undefined, update: (key, value) => Promise.resolve(void values.set(key, value)) };
}

describe('the focus Compact… offers', () => {
  it('is the last one given for that session, an empty one included, and nothing for another session', async () => {
    const storage = memoryStorage();
    const memory = new FocusMemory(storage);
    assert.equal(memory.get('/a.jsonl'), undefined);
    await memory.set('/a.jsonl', 'keep the retry decision');
    assert.equal(memory.get('/a.jsonl'), 'keep the retry decision');
    assert.equal(memory.get('/b.jsonl'), undefined);
    await memory.set('/a.jsonl', '');
    assert.equal(memory.get('/a.jsonl'), '', 'a focus the person cleared stays cleared');
  });

  it('ignores what is not a focus in the workspace state', () => {
    const storage = memoryStorage();
    storage.values.set('contextLens.focus:/a.jsonl', { not: 'a string' });
    assert.equal(new FocusMemory(storage).get('/a.jsonl'), undefined);
  });
});
