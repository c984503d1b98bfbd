// The log fold: what SQLite would read from a database and its log, from both files' bytes alone.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { foldWal, walSalt } from '../../../../src/sessions/common/opencodeStore/walFold';
import { imageAfter, resealWal, unpackFixture, walBetween } from '../../../support/opencodeWal';

const temp = mkdtempSync(join(tmpdir(), 'cl-opencode-wal-'));
after(() => rmSync(temp, { recursive: true, force: true }));

/** Header bytes 18–19 are the only difference the fold leaves: it marks the image as not using a log. */
const sameDatabase = (a: Uint8Array, b: Uint8Array): boolean =>
  a.length === b.length && a.every((byte, index) => index === 18 || index === 19 || byte === b[index]);

describe('foldWal', () => {
  const base = unpackFixture('plain', join(temp, 'plain.db'));

  it('applies a committed transaction, in either checksum byte order', async () => {
    const changed = await imageAfter(
      base,
      "UPDATE session SET title = 'Renamed'; INSERT INTO todo VALUES ((SELECT id FROM session), 'x', 'pending', 'high', 0, 1, 1)",
    );
    for (const big of [false, true]) {
      const folded = foldWal(base, walBetween(base, changed, { big }));
      assert.ok(folded.frames > 0);
      assert.ok(sameDatabase(folded.image, changed));
    }
  });

  it('ignores a transaction without its commit frame, other salts after the header, and a broken checksum', async () => {
    const changed = await imageAfter(base, "UPDATE session SET title = 'Renamed'");
    assert.equal(foldWal(base, walBetween(base, changed, { uncommitted: true })).frames, 0);
    const wal = walBetween(base, changed);
    const corrupt = wal.slice();
    corrupt[corrupt.length - 1] = (corrupt[corrupt.length - 1] ?? 0) ^ 0xff;
    assert.equal(foldWal(base, corrupt).frames, 0);
    assert.ok(sameDatabase(foldWal(base, corrupt).image, base));
    assert.equal(walSalt(wal), `${0x1234}:${0x5678}`);
  });

  it('keeps the database as it is for an absent, empty or foreign log, and never throws on arbitrary bytes', () => {
    for (const wal of [null, new Uint8Array(0), new Uint8Array(31), new TextEncoder().encode('x'.repeat(5000))])
      assert.ok(sameDatabase(foldWal(base, wal).image, base));
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 9000 }), fc.boolean(), (noise, withMagic) => {
        const wal = noise.slice();
        if (withMagic && wal.length >= 12) {
          wal.set([0x37, 0x7f, 0x06, 0x82], 0);
          wal.set([0, 0, 0x10, 0], 8);
        }
        const folded = foldWal(base, wal);
        return folded.image.length > 0;
      }),
      { numRuns: 200 },
    );
  });

  it('leaves out a log whose page size SQLite would refuse, or that differs from the database, whatever the checksums say', async () => {
    const wal = walBetween(base, await imageAfter(base, "UPDATE session SET title = 'Renamed'"));
    for (const size of [0, 1, 8, 511, 513, 1000, 1001, 4095, 4097, 131072, 0xffffffff, 2048, 8192, 65536]) {
      const lying = wal.slice();
      new DataView(lying.buffer).setUint32(8, size);
      const folded = foldWal(base, resealWal(lying, Math.min(size, 1 << 20) || 1));
      assert.equal(folded.frames, 0, `page size ${size}`);
      assert.ok(sameDatabase(folded.image, base));
      assert.match(folded.problem ?? '', /page size/, `page size ${size}`);
    }
  });

  it("never sizes the image by a commit frame's claim: a lie ends the fold at the commit before it", async () => {
    const first = await imageAfter(base, "UPDATE session SET title = 'First'");
    const wal = walBetween(base, first);
    const pageSize = new DataView(wal.buffer).getUint32(8);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 0xffffffff }), fc.integer({ min: 1, max: 0xffffffff }), (claim, page) => {
        const lying = wal.slice();
        const view = new DataView(lying.buffer);
        view.setUint32(32, page);
        view.setUint32(36, claim);
        const folded = foldWal(base, resealWal(lying, pageSize));
        // Every byte of the image comes from the database or the log.
        assert.ok(folded.image.length <= base.length + lying.length, `claim ${claim}, page ${page}: ${folded.image.length} bytes`);
        if (claim > base.length / pageSize + (page > base.length / pageSize ? 1 : 0)) assert.match(folded.problem ?? '', /claims a database of/);
      }),
      { numRuns: 300 },
    );
    // The real log still folds, with nothing said.
    assert.equal(foldWal(base, wal).problem, null);
  });
});
