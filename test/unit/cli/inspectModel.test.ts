// `inspect` names the model `sessions` names: also for a model behind Claude Code whose responses
// report all-zero usage (a third-party model such as glm-4.7), which gives the fill no reading.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { TranscriptBuilder, tempDir } from '../sessions/claude-code/builders';
import { run } from './support';

describe('inspect: the model', () => {
  it('of the last response, even when its usage is all zeros', async () => {
    const config = tempDir();
    const builder = new TranscriptBuilder('66666666-6666-4666-8666-666666666666');
    builder.user('Summarise the README');
    builder.text('msg_1', 'It describes a CLI.', { input: 0, output: 0 }, 'glm-4.7');
    builder.user('And the license?');
    builder.text('msg_2', 'MIT.', { input: 0, output: 0 }, 'glm-4.7');
    const path = builder.write(join(config, 'projects', '-home-user-project'));
    const listed = await run(['sessions', '--all', '--json', '--config-dir', config]);
    assert.equal((JSON.parse(listed.out) as { model: string | null }[])[0]?.model, 'glm-4.7');
    const inspected = await run(['inspect', path, '--json']);
    assert.equal(inspected.code, 0, inspected.err);
    assert.equal((JSON.parse(inspected.out) as { session: { model: string | null } }).session.model, 'glm-4.7');
    const human = await run(['inspect', path]);
    assert.match(human.out, /\(claude-code, glm-4\.7\)/);
  });
});
