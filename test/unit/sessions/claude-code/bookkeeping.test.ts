// Bookkeeping lines are told by their first bytes, and only where parsing could not tell otherwise.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isBookkeepingLine } from '../../../../src/sessions/claude-code/bookkeeping';

const line = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));

describe('isBookkeepingLine', () => {
  it('knows the records Claude Code writes beside the chain', () => {
    assert.ok(isBookkeepingLine(line({ type: 'queue-operation', operation: 'enqueue', content: 'hi' })));
    assert.ok(isBookkeepingLine(line({ type: 'last-prompt', lastPrompt: 'x' })));
    assert.ok(isBookkeepingLine(line({ type: 'mode', mode: 'normal' })));
  });

  it('parses chain records, replay records, a type only starting alike, a torn line and a second type key', () => {
    assert.equal(isBookkeepingLine(line({ type: 'user', uuid: 'u', parentUuid: null })), false);
    assert.equal(isBookkeepingLine(line({ parentUuid: null, type: 'progress' })), false);
    assert.equal(isBookkeepingLine(line({ type: 'api-request', id: 'r' })), false);
    assert.equal(isBookkeepingLine(line({ type: 'model-change' })), false);
    assert.equal(isBookkeepingLine(line({ type: 'modes' })), false);
    assert.equal(isBookkeepingLine(line({ type: 'mode' })), false, 'a type alone, no comma after it');
    assert.equal(isBookkeepingLine(line({ type: `queue-operation${'x'.repeat(100)}`, content: 'y' })), false);
    assert.equal(isBookkeepingLine(Buffer.from(`{"type":"${'q'.repeat(1000)}}`)), false, 'no closing quote near the start');
    assert.equal(isBookkeepingLine(Buffer.from('{"type":"queue-operation","content":"cut sho')), false);
    assert.equal(isBookkeepingLine(Buffer.from('{"type":"queue-operation","uuid":"u","type":"user"}')), false);
  });
});
