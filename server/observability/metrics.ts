import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { type CheckoutOutcome, type StockOutcome, type Telemetry, type Traced, untraced } from "./port.ts";

/** Seconds: from a cached page (well under a millisecond) to a stuck gateway. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type RequestSeries = { count: Counter.Internal; latency: Histogram.Internal<string> };

/**
 * The shop's metrics: one registry per service set (never prom-client's global one, so tests that
 * build several service sets in one process do not clash). Labels are bounded: methods, route
 * patterns, status codes, outcome names; never a user, an email or a raw path.
 */
export class ShopMetrics implements Telemetry {
  readonly registry = new Registry();
  private readonly requests = this.counter("storefront_http_requests_total", "HTTP requests by method, route pattern and status.", ["method", "route", "status"]);
  private readonly latency = new Histogram({
    name: "storefront_http_request_duration_seconds",
    help: "Time to the response's headers (a live stream counts until it opens), by method and route pattern.",
    labelNames: ["method", "route"],
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  private readonly pageCacheLookups = this.counter("storefront_page_cache_lookups_total", "Anonymous page renders looked up in the page cache.", ["result"]);
  private readonly stockReservations = this.counter("storefront_stock_reservations_total", "Checkouts' reservations: units reserved or refused, reservations expired or sold.", ["outcome"]);
  private readonly mailFailures = this.counter("storefront_mail_outbox_failed_total", "Mail given up on: expired before it could be sent, or its last attempt failed.", ["reason"]);
  private readonly refunds = this.counter("storefront_refunds_total", "Refunds written (created, once per Idempotency-Key) and settled at the gateway (succeeded, failed).", ["outcome"]);
  private readonly checkouts = this.counter("storefront_checkouts_total", "Checkout steps by outcome (created, succeeded, declined, rejected, failed).", ["outcome"]);
  private readonly orders = this.counter("storefront_orders_written_total", "Orders written (one per paid payment intent).");
  private readonly gateway = new Histogram({
    name: "storefront_gateway_call_duration_seconds",
    help: "Calls to the payment gateway, by gateway, operation and outcome.",
    labelNames: ["gateway", "operation", "outcome"],
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  private readonly reconcilerRuns = this.counter("storefront_reconciler_runs_total", "Runs of the payment reconciler, by outcome.", ["outcome"]);
  private readonly reconcilerFulfilled = this.counter(
    "storefront_reconciler_fulfilled_total",
    "Paid payment intents whose order the reconciler wrote (their completion never arrived).",
  );
  private readonly catalogueFailures = this.counter("storefront_catalogue_refresh_failures_total", "Failed refreshes of the remote catalogue.");
  private readonly imageFetches = this.counter("storefront_image_fetches_total", "Remote product image sources fetched, by outcome.", ["outcome"]);
  private readonly series = new Map<string, RequestSeries>();

  constructor(readonly trace: Traced = untraced) {}

  /** Node's own metrics (CPU, memory, heap, event loop lag, GC): only where they are served. */
  collectProcessMetrics(): void {
    collectDefaultMetrics({ register: this.registry });
  }

  request(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${route} ${status}`;
    let series = this.series.get(key);
    if (!series) {
      series = { count: this.requests.labels(method, route, String(status)), latency: this.latency.labels(method, route) };
      this.series.set(key, series);
    }
    series.count.inc();
    series.latency.observe(seconds);
  }

  pageCache(result: "hit" | "miss"): void {
    this.pageCacheLookups.labels(result).inc();
  }

  checkout(outcome: CheckoutOutcome): void {
    this.checkouts.labels(outcome).inc();
  }

  stockReservation(outcome: StockOutcome, checkouts: number): void {
    this.stockReservations.labels(outcome).inc(checkouts);
  }

  mailFailed(reason: "expired" | "attempts_exhausted"): void {
    this.mailFailures.labels(reason).inc();
  }

  refund(outcome: "created" | "succeeded" | "failed"): void {
    this.refunds.labels(outcome).inc();
  }

  orderWritten(): void {
    this.orders.inc();
  }

  async gatewayCall<T>(gateway: string, operation: string, run: () => Promise<T>): Promise<T> {
    const started = performance.now();
    let outcome = "error";
    try {
      const value = await this.trace(`payment gateway ${operation}`, { "payment.gateway": gateway, "payment.operation": operation }, run);
      outcome = "ok";
      return value;
    } finally {
      this.gateway.labels(gateway, operation, outcome).observe((performance.now() - started) / 1000);
    }
  }

  reconcilerRun(outcome: "ok" | "error", fulfilled: number): void {
    this.reconcilerRuns.labels(outcome).inc();
    if (fulfilled > 0) this.reconcilerFulfilled.inc(fulfilled);
  }

  catalogueRefreshFailed(): void {
    this.catalogueFailures.inc();
  }

  imageFetched(outcome: "ok" | "failed"): void {
    this.imageFetches.labels(outcome).inc();
  }

  /** A gauge read when scraped (open streams, connections in use, the outbox): nothing to keep up to date. */
  gauge(name: string, help: string, read: () => number | Promise<number>): void {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      async collect() {
        this.set(await read());
      },
    });
  }

  /** One series per possible state, 1 for the current one: `max by (state)` charts it, alerts match it. */
  stateGauge<S extends string>(name: string, help: string, states: readonly S[], read: () => S): void {
    new Gauge({
      name,
      help,
      labelNames: ["state"],
      registers: [this.registry],
      collect() {
        const current = read();
        for (const state of states) this.labels(state).set(state === current ? 1 : 0);
      },
    });
  }

  private counter(name: string, help: string, labelNames: string[] = []): Counter<string> {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }
}
