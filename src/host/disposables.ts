// The one way a host service owns what it must release: subscriptions, watchers, timers, child
// services. `own` hands a thing to the service; `dispose` releases all of it once, newest first (a
// service's listeners go before the emitters they listen to), and goes on past one that throws.
// Free of `vscode`: its Disposable is any object with a `dispose()`, so this is unit-tested in node.

export interface DisposableLike {
  dispose(): unknown;
}

export class Disposables implements DisposableLike {
  private readonly owned: DisposableLike[] = [];
  private disposed = false;

  /** Releases `thing` with this service; at once when the service is already disposed. */
  protected own<T extends DisposableLike>(thing: T): T {
    if (this.disposed) thing.dispose();
    else this.owned.push(thing);
    return thing;
  }

  /** Runs `release` when the service is disposed (a timer to clear, a run to abort). */
  protected onDispose(release: () => void): void {
    this.own({ dispose: release });
  }

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const errors: unknown[] = [];
    for (const thing of this.owned.splice(0).reverse()) {
      try {
        thing.dispose();
      } catch (error) {
        errors.push(error);
      }
    }
    // One failing release must not keep the others alive; the first error still surfaces.
    if (errors.length > 0) throw errors[0];
  }
}
