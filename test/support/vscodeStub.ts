// The few parts of the `vscode` module a host class needs to run outside VS Code (its events and
// the default settings), put in place of the module for unit tests of host classes that import it.
// Only what the tested classes use: a class using more fails loudly (undefined), not silently.
import Module from 'node:module';

type Listener<T> = (value: T) => unknown;

class EventEmitter<T> {
  private listeners: Listener<T>[] = [];
  readonly event = (listener: Listener<T>): { dispose(): void } => {
    this.listeners.push(listener);
    return { dispose: () => void (this.listeners = this.listeners.filter((one) => one !== listener)) };
  };
  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }
  dispose(): void {
    this.listeners = [];
  }
}

const stub = {
  EventEmitter,
  Disposable: class {
    constructor(private readonly done: () => void) {}
    dispose(): void {
      this.done();
    }
  },
  // Every setting at its default, as in a fresh profile.
  workspace: {
    getConfiguration: () => ({ get: <T>(_key: string, fallback: T): T => fallback, inspect: () => undefined }),
    onDidChangeConfiguration: () => ({ dispose: () => undefined }),
  },
};

type Load = (request: string, parent: unknown, isMain: boolean) => unknown;
const loader = Module as unknown as { _load: Load };
const load = loader._load;
loader._load = function (request, parent, isMain) {
  return request === 'vscode' ? stub : load.call(this, request, parent, isMain);
};
