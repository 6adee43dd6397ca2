import { AsyncLocalStorage } from "node:async_hooks";
import type { Context, ContextManager } from "@opentelemetry/api";

/**
 * OpenTelemetry's context on an AsyncLocalStorage, as the SDK's AsyncLocalStorageContextManager
 * keeps it, but disabled whenever no traced work is under way (`hold`). On Node 20 a storage that
 * has run keeps async_hooks' promise hooks on for every promise of the process until it is
 * disabled: with the SDK's manager, the first traced request made every later one pay for them,
 * also the catalogue API's answers, which never enter it (docs/BENCHMARKS.md). The SDK's manager
 * would do if it could be reached to disable it (its package, @opentelemetry/context-async-hooks,
 * is not a dependency of the shop). The next `with` enables the storage again (Node's
 * AsyncLocalStorage API). Work still running after the last hold is released, which the shop's
 * requests do not leave, would lose its context and start spans of its own.
 */
export class QuietContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>();
  private underWay = 0;

  constructor(private readonly root: Context) {}

  active(): Context {
    return this.storage.getStore() ?? this.root;
  }

  /**
   * Runs `fn` in `context`. Outside a hold, only its synchronous part is sure to see `context`:
   * the SDK's own calls (the batch processor wraps each export in one) must not leave the storage
   * on for the requests that follow.
   */
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(context: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    const call = thisArg === undefined ? fn : (fn.bind(thisArg) as F);
    const release = this.hold();
    try {
      return this.storage.run(context, call, ...args);
    } finally {
      release();
    }
  }

  /** Functions run in `context` (instrumentations bind callbacks); anything else as it is. */
  bind<T>(context: Context, target: T): T {
    if (typeof target !== "function") return target;
    const run = (self: unknown, args: unknown[]): unknown => this.with(context, () => (target as (...a: unknown[]) => unknown).apply(self, args));
    return function (this: unknown, ...args: unknown[]) {
      return run(this, args);
    } as T;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    this.storage.disable();
    return this;
  }

  /** Traced work begins; the returned function says it has ended (once), and the last one disables the storage. */
  hold(): () => void {
    this.underWay++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.underWay === 0) this.storage.disable();
    };
  }
}
