// The proxy's event file: rotated past its size cap (the panel reads only the tail), and a write
// that failed half-way (a full disk) never glues the next event to its torn line.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { formatProxyEvent, parseProxyEvent, ProxyEventWriter, readProxyEvents, type ProxyEvent } from '../../../src/proxy/events';
import { tempDir } from '../../support/tempDir';

const event = (index: number): ProxyEvent => ({
  v: 1,
  time: new Date(1_700_000_000_000 + index).toISOString(),
  session: `s${index}`,
  agentSession: null,
  method: 'POST',
  path: '/v1/messages',
  action: 'unchanged',
  reason: null,
  model: null,
  stream: false,
  agentTokens: index,
  sentTokens: index,
  stickyEdits: 0,
  newEdits: [],
  restored: [],
  addedMs: 0,
  status: 200,
  usage: null,
  error: null,
});

describe('proxy events', () => {
  it("carry a batch's break-even when there is one; a line written before it existed reads as before", () => {
    const breakEven = {
      model: 'claude-sonnet-4-5',
      oneOffUsd: 0.41,
      savingPerCallUsd: 0.12,
      breakEvenCalls: 4,
      sentence: 'costs $0.41 once, saves $0.12 per call: pays off after 4 calls',
    };
    const edited: ProxyEvent = { ...event(1), action: 'edited', breakEven };
    assert.deepEqual(parseProxyEvent(formatProxyEvent(edited))?.breakEven, breakEven);
    const older = JSON.parse(formatProxyEvent(event(2))) as Record<string, unknown>;
    assert.equal('breakEven' in older, false);
    assert.deepEqual(parseProxyEvent(JSON.stringify(older)), event(2));
    // A wrong figure is no event at all: the schema is the one definition both sides check.
    assert.equal(parseProxyEvent(JSON.stringify({ ...edited, breakEven: { ...breakEven, oneOffUsd: -1 } })), null);
  });
});

describe('ProxyEventWriter', () => {
  it('moves the file to .1 past its cap and begins a new one, so it never grows without end', async () => {
    const path = join(tempDir('cl-events-'), 'events.jsonl');
    const writer = new ProxyEventWriter(path, (error) => assert.fail(String(error)), 4_000);
    for (let index = 0; index < 60; index++) writer.append(event(index));
    await writer.flush();
    assert.ok(statSync(path).size <= 4_000);
    assert.ok(statSync(`${path}.1`).size <= 4_000);
    const kept = await readProxyEvents(path);
    assert.ok(kept.ok);
    assert.equal(kept.value.at(-1)?.session, 's59');
  });

  it('after a failed write the next event starts on a line of its own', async () => {
    const path = join(tempDir('cl-events-'), 'events.jsonl');
    const errors: unknown[] = [];
    const writer = new ProxyEventWriter(path, (error) => errors.push(error));
    // A directory in the file's place: the append fails, as on a full disk.
    mkdirSync(path);
    writer.append(event(1));
    await writer.flush();
    assert.equal(errors.length, 1);
    rmSync(path, { recursive: true });
    // What a write cut by ENOSPC leaves: half a line.
    writeFileSync(path, '{"v":1,"time":"2026-');
    writer.append(event(2));
    await writer.flush();
    const read = await readProxyEvents(path);
    assert.ok(read.ok);
    assert.deepEqual(
      read.value.map((entry) => entry.session),
      ['s2'],
    );
    assert.ok(existsSync(path) && readFileSync(path, 'utf8').endsWith('\n'));
  });
});
