/**
 * A fixed-window counter per key (a user, a client address), in this process's memory: at most
 * `max` admissions per window. Bounded: past `maxKeys`, finished windows are dropped first, then
 * the oldest.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 10_000,
  ) {}

  /** Admits one more for `key` (null), or says in how many seconds it may try again. */
  take(key: string): number | null {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      if (!window && this.windows.size >= this.maxKeys) this.makeRoom(now);
      window = { start: now, count: 0 };
      this.windows.delete(key);
      this.windows.set(key, window);
    }
    if (window.count >= this.max) return Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000));
    window.count++;
    return null;
  }

  private makeRoom(now: number) {
    for (const [key, window] of this.windows) if (now - window.start >= this.windowMs) this.windows.delete(key);
    if (this.windows.size >= this.maxKeys) this.windows.delete(this.windows.keys().next().value!);
  }
}
