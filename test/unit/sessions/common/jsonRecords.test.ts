// Deep nesting is cut only where it is: brackets inside strings, however many, leave a record whole.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JsonRecordParser, MAX_NESTING } from '../../../../src/sessions/common/jsonRecords';

const parser = () => new JsonRecordParser({ noun: 'record(s)' });

describe('JsonRecordParser nesting', () => {
  it('keeps a record whose many brackets are all in strings', () => {
    const record = { type: 'user', text: `${'{['.repeat(MAX_NESTING * 2)}` };
    const reading = parser();
    const located = reading.parse(Buffer.from(JSON.stringify(record)), 1, 0, 1);
    assert.deepEqual(located?.record, record);
    assert.deepEqual(reading.diagnostics(), []);
  });

  it('cuts a record nested deeper than the limit, and only that one', () => {
    const deep = `{"type":"user","x":${'['.repeat(MAX_NESTING + 5)}1${']'.repeat(MAX_NESTING + 5)}}`;
    const reading = parser();
    assert.ok(reading.parse(Buffer.from(deep), 1, 0, 1));
    assert.deepEqual(
      reading.diagnostics().map((diagnostic) => diagnostic.code),
      ['too-deep'],
    );
    const shallow = `{"type":"user","x":${'['.repeat(MAX_NESTING - 2)}1${']'.repeat(MAX_NESTING - 2)}}`;
    const again = parser();
    assert.ok(again.parse(Buffer.from(shallow), 1, 0, 1));
    assert.deepEqual(again.diagnostics(), []);
  });
});
