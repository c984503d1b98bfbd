// Cline's fixtures as sessions on disk: the recorded SDK sessions (test/fixtures/cline/recorded/<name>/,
// each a data folder with `sessions/`) and the published task folders of the VS Code extension
// (test/fixtures/cline/published/<source>/tasks/<id>/, their files gzipped), unpacked once per
// process into a temporary storage folder that goes when the process does.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

export const CLINE_FIXTURES = join(__dirname, '..', 'fixtures', 'cline');

/** Each recorded session, its workspace and the prompt of its last call as the stand-in counted it. */
export const RECORDED_CLINE: readonly { fixture: string; id: string; fill: number; workspace: string }[] = [
  { fixture: 'plain', id: '1795828407386_69595', fill: 5419, workspace: '/tmp/cline-rec-plain-8K1q0t/workspace' },
  { fixture: 'tools', id: '1795828419459_ytccf', fill: 5838, workspace: '/tmp/cline-rec-tools-ALRlZ5/workspace' },
  { fixture: 'subagent', id: '1795828434493_rn9hk', fill: 5544, workspace: '/tmp/cline-rec-subagent-maueCc/workspace' },
  { fixture: 'subagent', id: '1795828434493_rn9hk__agent_1795828436163_fmhrsw', fill: 2318, workspace: '/tmp/cline-rec-subagent-maueCc/workspace' },
];

/** The messages file of a recorded session in a data folder. */
export function recordedPath(dataDir: string, id: string): string {
  const [parent, agent] = id.split('__');
  return agent === undefined ? join(dataDir, 'sessions', id, `${id}.messages.json`) : join(dataDir, 'sessions', parent!, `${agent}.messages.json`);
}

/** A copy of one recorded fixture's data folder under `dir`. */
export function copyRecorded(fixture: string, dir: string): string {
  cpSync(join(CLINE_FIXTURES, 'recorded', fixture), dir, { recursive: true });
  return dir;
}

let unpacked: string | null = null;

/** The published task folders, unpacked: `<storage>/tasks/<id>/…` per source, by source name. */
export function publishedStorages(): Map<string, string> {
  if (unpacked === null) {
    unpacked = mkdtempSync(join(tmpdir(), 'cl-cline-published-'));
    const root = unpacked;
    process.on('exit', () => rmSync(root, { recursive: true, force: true }));
  }
  const storages = new Map<string, string>();
  const published = join(CLINE_FIXTURES, 'published');
  for (const source of readdirSync(published, { withFileTypes: true })) {
    if (!source.isDirectory()) continue;
    const storage = join(unpacked, source.name);
    storages.set(source.name, storage);
    for (const task of readdirSync(join(published, source.name, 'tasks'))) {
      const into = join(storage, 'tasks', task);
      mkdirSync(into, { recursive: true });
      for (const file of readdirSync(join(published, source.name, 'tasks', task))) {
        const from = join(published, source.name, 'tasks', task, file);
        writeFileSync(join(into, file.replace(/\.gz$/, '')), file.endsWith('.gz') ? gunzipSync(readFileSync(from)) : readFileSync(from));
      }
    }
  }
  return storages;
}

/** The fill Cline counted at a task's last request: tokensIn + cacheWrites + cacheReads of its last `api_req_started`. */
export function lastRequestFill(taskFolder: string): number | null {
  const ui = JSON.parse(readFileSync(join(taskFolder, 'ui_messages.json'), 'utf8')) as { say?: string; text?: string }[];
  for (const message of [...ui].reverse()) {
    if (message.say !== 'api_req_started' || message.text === undefined) continue;
    const counts = JSON.parse(message.text) as Record<string, number | undefined>;
    if (counts.tokensIn === undefined) continue;
    return counts.tokensIn + (counts.cacheWrites ?? 0) + (counts.cacheReads ?? 0);
  }
  return null;
}

/** Every cost Cline recorded in a task's `api_req_started` messages, summed. */
export function recordedTaskCost(taskFolder: string): number {
  const ui = JSON.parse(readFileSync(join(taskFolder, 'ui_messages.json'), 'utf8')) as { say?: string; text?: string }[];
  return ui
    .filter((message) => message.say === 'api_req_started' && message.text !== undefined)
    .reduce((sum, message) => sum + ((JSON.parse(message.text!) as { cost?: number }).cost ?? 0), 0);
}
