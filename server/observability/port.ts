/**
 * What the services report for operators, as plain functions: the services never import
 * prom-client or OpenTelemetry. The metrics registry (metrics.ts) implements it in the running shop;
 * a service built without it (in a test, say) reports to `noTelemetry`.
 */

/** Attributes of a span: bounded, never user data (no emails, no tokens, no card data). */
export type SpanAttributes = Record<string, string | number | boolean | undefined>;

/** Runs `run` inside a child span of the current one (tracing on), or just runs it (tracing off). */
export type Traced = <T>(name: string, attributes: SpanAttributes, run: () => Promise<T>) => Promise<T>;

export const untraced: Traced = (_name, _attributes, run) => run();

/**
 * How a checkout step ended. created: a payment intent was made; succeeded: a payment went through
 * (its order exists); declined: the card was refused; rejected: the request was refused (prices
 * changed, unknown product, already paid, not found); failed: the shop or its gateway could not
 * take it (catalogue away, gateway error).
 */
export type CheckoutOutcome = "created" | "succeeded" | "declined" | "rejected" | "failed";

export interface Telemetry {
  /** Child spans for outbound work (catalogue and image fetches); the gateway's come with gatewayCall. */
  readonly trace: Traced;
  pageCache(result: "hit" | "miss"): void;
  checkout(outcome: CheckoutOutcome): void;
  /** An order was written (exactly once per payment, whichever path wrote it). */
  orderWritten(): void;
  /** Times (and traces) one call to the payment gateway. */
  gatewayCall<T>(gateway: string, operation: string, run: () => Promise<T>): Promise<T>;
  /** A round of the payment reconciler, and how many paid intents it fulfilled. */
  reconcilerRun(outcome: "ok" | "error", fulfilled: number): void;
  /** A refresh of the remote catalogue's product list failed. */
  catalogueRefreshFailed(): void;
  /** A remote product image's source was fetched, or could not be. */
  imageFetched(outcome: "ok" | "failed"): void;
  /** Checkouts' units were reserved or refused; reservations expired or became a sale. */
  stockReservation(outcome: StockOutcome, checkouts: number): void;
  /** A refund was written (once per Idempotency-Key), or settled at the gateway. */
  refund(outcome: "created" | "succeeded" | "failed"): void;
}

export const noTelemetry: Telemetry = {
  trace: untraced,
  pageCache() {},
  checkout() {},
  orderWritten() {},
  gatewayCall: (_gateway, _operation, run) => run(),
  reconcilerRun() {},
  catalogueRefreshFailed() {},
  imageFetched() {},
  refund() {},
  stockReservation() {},
};

export type StockOutcome = "reserved" | "refused" | "expired" | "sold";
