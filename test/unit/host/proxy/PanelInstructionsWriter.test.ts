// The extension's side of the panel's say: written only when it changed, the latest winning, and a
// folder it cannot write is said once in the log while the panel goes on.
import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PanelInstructionsWriter } from '../../../../src/host/proxy/PanelInstructionsWriter';
import { PanelInstructionsReader } from '../../../../src/proxy/panelInstructions';
import { tempDir } from '../../../support/tempDir';

const SESSION = 'e312c332-1269-4f82-b8fb-6059e3c67fa5';

describe('PanelInstructionsWriter', () => {
  it('writes when the say changes, not on every refresh; the last say is the one on disk', async () => {
    const state = tempDir('cl-panel-writer-');
    const writer = new PanelInstructionsWriter(state, assert.fail);
    writer.update(SESSION, { drop: ['toolu_a'] });
    await writer.settled();
    const file = join(state, 'panel', `${SESSION}.json`);
    const inode = statSync(file).ino;
    writer.update(SESSION, { drop: ['toolu_a'] });
    await writer.settled();
    assert.equal(statSync(file).ino, inode, 'an unchanged say is not written again');
    writer.update(SESSION, { drop: ['toolu_b'] });
    writer.update(SESSION, { keep: ['toolu_b'] });
    await writer.settled();
    assert.deepEqual(new PanelInstructionsReader(join(state, 'panel')).of(SESSION), { keep: ['toolu_b'], drop: [] });
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).agentSession, SESSION);
  });

  it('a state folder it cannot write is one line in the log', async () => {
    const state = tempDir('cl-panel-writer-');
    writeFileSync(join(state, 'panel'), 'a file where the folder goes');
    const lines: string[] = [];
    const writer = new PanelInstructionsWriter(state, (line) => lines.push(line));
    writer.update(SESSION, { drop: ['toolu_a'] });
    writer.update(SESSION, { drop: ['toolu_b'] });
    await writer.settled();
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(lines[0]!, /cannot leave the panel's choices for the live proxy/);
  });
});
