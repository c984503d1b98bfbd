// The host's one disposable base: what a service owns is released once, newest first, past a
// release that throws; and no host class releases things by hand beside it (where leaks hide).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { Disposables, type DisposableLike } from '../../../src/host/disposables';

class Service extends Disposables {
  take<T extends DisposableLike>(thing: T): T {
    return this.own(thing);
  }
  release(run: () => void): void {
    this.onDispose(run);
  }
}

const HOST = join(__dirname, '..', '..', '..', 'src', 'host');
const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? sources(join(dir, name)) : name.endsWith('.ts') ? [join(dir, name)] : []));

describe('Disposables', () => {
  it('releases everything it owns once, newest first', () => {
    const order: string[] = [];
    const service = new Service();
    service.take({ dispose: () => order.push('emitter') });
    service.take({ dispose: () => order.push('listener') });
    service.release(() => order.push('timer'));
    service.dispose();
    service.dispose();
    assert.deepEqual(order, ['timer', 'listener', 'emitter']);
  });

  it('releases at once what it is handed after it was disposed', () => {
    const service = new Service();
    service.dispose();
    let released = 0;
    service.take({ dispose: () => released++ });
    assert.equal(released, 1);
  });

  it('goes on past a release that throws, then reports the error', () => {
    const service = new Service();
    let released = 0;
    service.take({ dispose: () => released++ });
    service.release(() => {
      throw new Error('watcher already closed');
    });
    assert.throws(() => service.dispose(), /watcher already closed/);
    assert.equal(released, 1);
  });

  it('is the only dispose() in the host: every service owns what it releases through it', () => {
    const handWritten = sources(HOST)
      .filter((path) => !path.endsWith('disposables.ts'))
      .filter(
        (path) => /^\s+dispose\(\)(: void)? \{/m.test(readFileSync(path, 'utf8')) || /implements [^{]*vscode\.Disposable\b/.test(readFileSync(path, 'utf8')),
      );
    assert.deepEqual(
      handWritten.map((path) => relative(HOST, path)),
      [],
    );
  });

  it('leaves no event emitter, status item, watcher or command unowned', () => {
    const unowned = sources(HOST).flatMap((path) =>
      readFileSync(path, 'utf8')
        .split('\n')
        .map((line, index) => ({ line, at: `${relative(HOST, path)}:${index + 1}` }))
        .filter(
          ({ line }) =>
            /= new vscode\.EventEmitter|= vscode\.window\.createStatusBarItem|vscode\.commands\.registerCommand\(/.test(line) && !/own\(/.test(line),
        )
        .map(({ at }) => at),
    );
    assert.deepEqual(unowned, []);
  });
});
