import type { AsyncLocalStorage } from "node:async_hooks";
import { getCurrentAuthContextAsyncLocalStorage, getCurrentDBAdapterAsyncLocalStorage, getRequestStateAsyncLocalStorage } from "@better-auth/core/context";

/**
 * better-auth keeps each call's state (its endpoint context, request state and database adapter)
 * in AsyncLocalStorages. On Node 20 a storage that has run once keeps async_hooks' promise hooks on
 * for the rest of the process (until it is disabled), so after the first sign-in every promise
 * any request makes paid for them (about 5% of the shop's CPU under the checkout bench), though a
 * signed-in shopper's requests rarely call better-auth (the session step answers from its own
 * cache). So every call into better-auth goes through `run`, and when none is under way the
 * storages are disabled; the next call's `run` enables them again (Node's AsyncLocalStorage API).
 * This holds because better-auth finishes its work before a call settles: it awaits its
 * "background" tasks unless `advanced.backgroundTasks.handler` is set, which we do not do (work
 * handed to such a handler would outlive the call and lose its context here).
 */
export class QuietStorages {
  private running = 0;

  constructor(private readonly storages: readonly AsyncLocalStorage<unknown>[]) {}

  /** Made once better-auth exists: the storages are its process-wide ones, created here if need be. */
  static async create(): Promise<QuietStorages> {
    const storages = await Promise.all([getCurrentAuthContextAsyncLocalStorage(), getRequestStateAsyncLocalStorage(), getCurrentDBAdapterAsyncLocalStorage()]);
    return new QuietStorages(storages);
  }

  /** Runs one call into better-auth; the last one to finish disables the storages. */
  async run<T>(call: () => Promise<T>): Promise<T> {
    this.running++;
    try {
      return await call();
    } finally {
      if (--this.running === 0) for (const storage of this.storages) storage.disable();
    }
  }
}
