import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { listenersIn, loopbackListeners } from '../../../src/cli/listenerOwner';
import { tempDir } from '../../support/tempDir';

const HEADER = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode';
const row = (local: string, state: string, uid: number): string =>
  `   0: ${local} 00000000:0000 ${state} 00000000:00000000 00:00000000 00000000  ${uid}        0 1677 1 0000000000000000 100 0 0 10 0`;

describe('who listens on a loopback port', () => {
  it('reads the owner of a listening loopback or any-address socket from /proc/net/tcp and tcp6, and nothing else', () => {
    const tcp = [
      HEADER,
      row('0100007F:A4C3', '0A', 1000),
      row('00000000:A4C3', '0A', 1001),
      // Connected, not listening; another port; an address that is not loopback.
      row('0100007F:A4C3', '01', 1002),
      row('0100007F:A4C4', '0A', 1003),
      row('0101A8C0:A4C3', '0A', 1004),
    ].join('\n');
    assert.deepEqual(listenersIn(tcp, 0xa4c3), [1000, 1001]);
    const tcp6 = [HEADER, row('00000000000000000000000001000000:A4C3', '0A', 1005), row('0000000000000000FFFF00000100007F:A4C3', '0A', 1006)].join('\n');
    assert.deepEqual(listenersIn(tcp6, 0xa4c3), [1005, 1006]);
    assert.deepEqual(listenersIn('garbage\n\n   : : :', 0xa4c3), []);
  });

  it("finds this process's own listener, and says it cannot tell where the system lists no sockets", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as { port: number }).port;
      const found = loopbackListeners(port);
      if (found === null) return; // not Linux
      assert.ok(found.includes(process.getuid?.() ?? -1), JSON.stringify(found));
    } finally {
      server.close();
    }
    const folder = tempDir('cl-listeners-');
    assert.equal(loopbackListeners(1, [join(folder, 'absent')]), null);
    writeFileSync(join(folder, 'tcp'), HEADER);
    assert.deepEqual(loopbackListeners(1, [join(folder, 'tcp')]), []);
  });
});
