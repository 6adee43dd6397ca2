export interface CircuitBreakerOptions {
  /** The first pause after a failure. */
  baseMs: number;
  /** The longest pause, however many failures follow one another. */
  maxMs: number;
  now: () => number;
}

/**
 * Stops asking a sick host for a while after it failed: the pause doubles with each failure in a
 * row (baseMs, 2×, 4×, … up to maxMs) and ends with the first success. While it is open, callers
 * answer from what they have instead of waiting for a timeout; when the pause is over, one request
 * may try again (the caller makes sure it is only one).
 */
export class CircuitBreaker {
  private failures = 0;
  private openUntil = 0;

  constructor(private readonly options: CircuitBreakerOptions) {}

  /** May a request go to the host now? */
  allows(): boolean {
    return this.options.now() >= this.openUntil;
  }

  /** Has the host failed since it last answered? */
  get failing(): boolean {
    return this.failures > 0;
  }

  /** When the next request may go out, while the breaker is open. */
  get retryAt(): number | undefined {
    return this.allows() ? undefined : this.openUntil;
  }

  success(): void {
    this.failures = 0;
    this.openUntil = 0;
  }

  failure(): void {
    this.failures += 1;
    const pause = Math.min(this.options.maxMs, this.options.baseMs * 2 ** Math.min(this.failures - 1, 30));
    this.openUntil = this.options.now() + pause;
  }
}
