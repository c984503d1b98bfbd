import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import fsPromises from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FileSystemArchive, StagedArchive, pruneArchive } from '../../../src/archive/fileArchive';
import type { ArchiveEntry } from '../../../src/engine/archive';
import { compact } from '../../../src/engine/compact';
import { charEstimateTokenizer as tokenizer } from '../../../src/engine/tokens/tokenizer';
import { assistant, big, build, read, user } from '../engine/support/build';
import { tempDir } from '../../support/tempDir';

const mode = (path: string): number => statSync(path).mode & 0o777;
const temp = (): string => tempDir('archive-');
const context = () =>
  build(
    [
      user('Refactor the parser.'),
      ...read('a1', '/src/a.ts', big('a v1', 8_000)),
      assistant('I decided to stream the input because memory was the bottleneck.'),
      ...read('a2', '/src/a.ts', big('a v2', 8_000)),
      assistant('The failure is due to an off-by-one. Next I will fix it.'),
      ...read('b1', '/src/b.ts', big('b v1', 6_000)),
      user('Good. Continue with b.ts.'),
      ...read('b2', '/src/b.ts', big('b v2', 2_000)),
      assistant('Working on it.'),
    ],
    { windowTokens: 12_000 },
  );
const entry = (id: string, bytes = 10): ArchiveEntry => ({
  id,
  createdAt: '2025-01-01T00:00:00.000Z',
  reason: 'manual',
  context: { items: [], windowTokens: 1, usedTokens: 0, usedSource: 'estimate', tokenScale: 1, pad: 'x'.repeat(bytes) } as never,
});

describe('FileSystemArchive', () => {
  it('writes entries 0600 in a 0700 folder', async () => {
    const folder = join(temp(), 'state', 'archive');
    const ref = await new FileSystemArchive(folder).write(entry('2025-01-01T00-00-00-000Z-abc123'));
    assert.equal(mode(folder), 0o700);
    assert.equal(mode(ref.location), 0o600);
  });

  it('tightens an existing archive folder, never a folder holding other files', async () => {
    const ours = temp();
    chmodSync(ours, 0o755);
    await new FileSystemArchive(ours).write(entry('2025-01-01T00-00-00-000Z-aaaaaa'));
    assert.equal(mode(ours), 0o700);
    const shared = temp();
    writeFileSync(join(shared, 'notes.txt'), 'mine');
    chmodSync(shared, 0o755);
    const ref = await new FileSystemArchive(shared).write(entry('2025-01-01T00-00-00-000Z-bbbbbb'));
    assert.equal(mode(shared), 0o755);
    assert.equal(mode(ref.location), 0o600);
  });
});

describe('StagedArchive', () => {
  it('a preview writes nothing; the apply step commits the entry the summary cites', async () => {
    const folder = join(temp(), 'archive');
    const archive = new StagedArchive(new FileSystemArchive(folder));
    const result = await compact(context(), { trigger: 'manual' }, { tokenizer, archive });
    assert.ok(result.archive && result.summary);
    assert.ok(!existsSync(folder), 'nothing on disk for a preview');
    assert.ok(result.summary.text.includes(`archive="${result.archive.id}"`));
    const committed = await archive.commit(result.archive.id);
    assert.ok(committed.ok);
    assert.deepEqual(readdirSync(folder), [`${result.archive.id}.json`]);
    assert.equal(mode(committed.value.location), 0o600);
    assert.equal((await archive.get(result.archive.id))?.context.items.length, context().items.length);
    assert.deepEqual(await archive.commit(result.archive.id), { ok: false, error: `no staged archive entry ${result.archive.id}` });
  });

  it('says why when the entry cannot be written', async () => {
    const file = join(temp(), 'not-a-folder');
    writeFileSync(file, '');
    const archive = new StagedArchive(new FileSystemArchive(join(file, 'archive')));
    const { id } = await archive.put({ createdAt: new Date().toISOString(), reason: 'manual', context: context() });
    const committed = await archive.commit(id);
    assert.equal(committed.ok, false);
    assert.match(committed.ok ? '' : committed.error, /could not archive the context/);
  });

  it('a full disk leaves no partial *.tmp behind and says so (each retry would add one)', async () => {
    const folder = temp();
    const archive = new StagedArchive(new FileSystemArchive(folder));
    const { id } = await archive.put({ createdAt: new Date().toISOString(), reason: 'manual', context: context() });
    const original = fsPromises.writeFile;
    (fsPromises as { writeFile: typeof fsPromises.writeFile }).writeFile = (async (path: string, data: string, options: object) => {
      await original(path, data.slice(0, 100), options);
      throw Object.assign(new Error('ENOSPC: injected'), { code: 'ENOSPC' });
    }) as typeof fsPromises.writeFile;
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const committed = await archive.commit(id);
        assert.equal(
          committed.ok ? '' : committed.error,
          `could not archive the context in ${folder}: No space left on the disk while writing ${join(folder, `${id}.json`)}`,
        );
      }
    } finally {
      (fsPromises as { writeFile: typeof fsPromises.writeFile }).writeFile = original;
    }
    assert.deepEqual(readdirSync(folder), []);
  });
});

describe('pruneArchive', () => {
  const DAY = 24 * 60 * 60 * 1000;
  const now = new Date('2025-06-30T00:00:00Z');
  /** Entries of `kb` KB, `daysOld` days old, oldest first. */
  function folderWith(entries: { name: string; kb: number; daysOld: number }[]): string {
    const folder = temp();
    for (const { name, kb, daysOld } of entries) {
      const path = join(folder, name);
      writeFileSync(path, 'x'.repeat(kb * 1024));
      const at = new Date(now.getTime() - daysOld * DAY);
      utimesSync(path, at, at);
    }
    return folder;
  }
  const names = [
    '2025-01-01T00-00-00-000Z-aaaaaa.json',
    '2025-05-01T00-00-00-000Z-bbbbbb.json',
    '2025-06-20T00-00-00-000Z-cccccc.json',
    '2025-06-29T00-00-00-000Z-dddddd.json',
  ];
  const sample = () => folderWith(names.map((name, index) => ({ name, kb: 400, daysOld: [180, 60, 10, 1][index] ?? 0 })));

  it('removes entries past the age cap, then the oldest beyond the size cap', async () => {
    const folder = sample();
    writeFileSync(join(folder, 'unrelated.json'), 'not ours');
    const pruned = await pruneArchive(folder, { maxAgeDays: 30, maxMegabytes: 0.5, now });
    assert.ok(pruned.ok);
    assert.deepEqual(
      pruned.value.removed.map((file) => [file.name, file.reason]),
      [
        [names[0], 'age'],
        [names[1], 'age'],
        [names[2], 'size'],
      ],
    );
    assert.deepEqual(readdirSync(folder).sort(), [names[3], 'unrelated.json']);
    assert.equal(pruned.value.keptEntries, 1);
    assert.equal(pruned.value.keptBytes, 400 * 1024);
  });

  it('0 means no cap; a dry run removes nothing', async () => {
    const folder = sample();
    const none = await pruneArchive(folder, { maxAgeDays: 0, maxMegabytes: 0, now });
    assert.ok(none.ok);
    assert.equal(none.value.removed.length, 0);
    const dry = await pruneArchive(folder, { maxAgeDays: 30, maxMegabytes: 200, now, dryRun: true });
    assert.ok(dry.ok);
    assert.equal(dry.value.removed.length, 2);
    assert.equal(readdirSync(folder).length, 4);
  });

  it('keeps the named entry even when it alone exceeds the cap, and clears dead temp files', async () => {
    const folder = folderWith([
      { name: names[3] ?? '', kb: 2048, daysOld: 0 },
      { name: `${names[2] ?? ''}.123.tmp`, kb: 1, daysOld: 1 },
      { name: `${names[1] ?? ''}.456.tmp`, kb: 1, daysOld: 0 },
    ]);
    const pruned = await pruneArchive(folder, { maxAgeDays: 30, maxMegabytes: 1, now, keep: [names[3] ?? ''] });
    assert.ok(pruned.ok);
    assert.deepEqual(
      pruned.value.removed.map((file) => file.reason),
      ['temp'],
    );
    assert.deepEqual(readdirSync(folder).sort(), [`${names[1] ?? ''}.456.tmp`, names[3]]);
  });

  it('a missing folder is an empty archive; an unreadable one is an error', async () => {
    const missing = await pruneArchive(join(temp(), 'none'), { maxAgeDays: 1, maxMegabytes: 1 });
    assert.deepEqual(missing.ok && [missing.value.removed.length, missing.value.keptEntries], [0, 0]);
    const file = join(temp(), 'file');
    writeFileSync(file, '');
    const broken = await pruneArchive(file, { maxAgeDays: 1, maxMegabytes: 1 });
    assert.equal(broken.ok, false);
  });

  it('commit prunes to the caps it is given', async () => {
    const folder = sample();
    mkdirSync(folder, { recursive: true });
    const archive = new StagedArchive(new FileSystemArchive(folder));
    const { id } = await archive.put({ createdAt: new Date().toISOString(), reason: 'manual', context: context() });
    const committed = await archive.commit(id, { maxAgeDays: 0, maxMegabytes: 0.3 });
    assert.ok(committed.ok);
    assert.deepEqual(readdirSync(folder), [`${id}.json`]);
  });
});
