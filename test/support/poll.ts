import { setTimeout as delay } from "node:timers/promises";

/**
 * Reads `read` until `done` holds or `timeoutMs` has passed, and gives the last value read (the
 * caller asserts on it): for what changes when something finishes elsewhere (a closed stream, a
 * notification, a scrape), never as a stand-in for a fixed sleep.
 */
export async function eventually<T>(read: () => Promise<T> | T, done: (value: T) => boolean, { timeoutMs = 5_000, everyMs = 20 } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await delay(everyMs);
  }
}
