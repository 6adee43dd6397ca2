import { sql } from "kysely";
import type { AppDatabase } from "../db/database.ts";
import type { Logger } from "../log.ts";
import type { PaymentGateway } from "./gateway.ts";
import type { PaymentsService } from "./service.ts";
import { inFlightPage, markChecked, type Payment } from "./store.ts";
import { noTelemetry, type Telemetry } from "../observability/port.ts";

const PAGE = 100;
export const RECONCILER_LOCK = 0x53_74_50_52; // "StPR": one PostgreSQL advisory lock, one reconciling instance

export interface ReconcileResult {
  /** Paid at the gateway, order written here (its completion never arrived). */
  fulfilled: number;
  /** Unpaid past PAYMENT_INTENT_TTL_HOURS: cancelled at the gateway and here. */
  canceled: number;
  /** Every intent in flight looked at by this run. */
  checked: number;
  /** Refunds the gateway never answered (it could not be reached), asked again. */
  refundsAsked: number;
}

/** How long a refund may wait for its first answer from the gateway before a run asks again. */
export const REFUND_GRACE_MS = 60_000;

/**
 * The payment intents in flight, looked after. Each run goes through every one of them, least
 * recently checked first (so no number of abandoned intents keeps a paid one waiting): one the
 * gateway reports paid gets its order; one unpaid past the TTL is cancelled at the gateway and
 * here. The gateway is asked about each (recheckIntent): Stripe is; the test gateway's intents
 * are our own rows, so for it a run only expires the old ones. One instance at a time runs it (a
 * PostgreSQL advisory lock); `main.ts` starts it, tests call `run` with their own clock.
 */
export class PaymentReconciler {
  constructor(
    private readonly deps: {
      database: AppDatabase;
      gateway: PaymentGateway;
      payments: PaymentsService;
      /** Refunds: the ones the gateway never answered are asked again. */
      refunds?: { resubmit(createdBefore: number): Promise<number> };
      ttlMs: number;
      log: Logger;
    },
  ) {}

  /** One run at time `now`; null when another instance holds the lock. */
  async run(now = Date.now()): Promise<ReconcileResult | null> {
    const { database } = this.deps;
    if (database.engine === "sqlite") return this.runUnlocked(now);
    return database.db.connection().execute(async (connection) => {
      const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${RECONCILER_LOCK}) as locked`.execute(connection);
      if (!rows[0]?.locked) return null;
      try {
        return await this.runUnlocked(now);
      } finally {
        await sql`select pg_advisory_unlock(${RECONCILER_LOCK})`.execute(connection);
      }
    });
  }

  private async runUnlocked(now: number): Promise<ReconcileResult> {
    const { database, gateway, log } = this.deps;
    const result: ReconcileResult = { fulfilled: 0, canceled: 0, checked: 0, refundsAsked: 0 };
    // Each payment looked at is marked checked at `now`, so the next page is the next ones.
    for (;;) {
      const page = await inFlightPage(database.db, gateway.kind, now, PAGE);
      if (page.length === 0) break;
      for (const payment of page) {
        const outcome = await this.check(payment, now).catch((error: unknown) => {
          log.warn({ err: error, paymentIntent: payment.id }, "payment intent could not be reconciled; will retry");
          return "failed" as const;
        });
        if (outcome === "failed") await markChecked(database.db, payment.id, now);
        else if (outcome !== "pending") result[outcome]++;
        result.checked++;
      }
    }
    result.refundsAsked = (await this.deps.refunds?.resubmit(now - REFUND_GRACE_MS)) ?? 0;
    if (result.fulfilled > 0) log.warn({ fulfilled: result.fulfilled }, "reconciler fulfilled payments whose completion never arrived");
    if (result.canceled > 0) log.info({ canceled: result.canceled }, "reconciler cancelled expired unpaid payment intents");
    return result;
  }

  private async check(payment: Payment, now: number): Promise<"fulfilled" | "canceled" | "pending"> {
    const { database, gateway, payments, ttlMs } = this.deps;
    const expired = payment.created < now - ttlMs;
    const state = await gateway.recheckIntent(payment);
    if (state?.status === "succeeded") {
      const order = await payments.fulfilFromGateway(payment, state);
      await markChecked(database.db, payment.id, now);
      return order ? "fulfilled" : "pending";
    }
    if (state?.status === "canceled") {
      await markChecked(database.db, payment.id, now, true);
      return "canceled";
    }
    if (expired) {
      // Cancelled at the gateway first (unless it has no such intent): if it was paid meanwhile,
      // the gateway refuses (this run logs it) and the next run finds it paid.
      if (state !== null) await gateway.cancelIntent(payment.id);
      await markChecked(database.db, payment.id, now, true);
      return "canceled";
    }
    await markChecked(database.db, payment.id, now);
    return "pending";
  }
}

/** Runs the reconciler now and every `everyMs` until stopped; `stop` waits for a run under way. */
export function startReconciler(
  reconciler: PaymentReconciler,
  everyMs: number,
  log: Logger,
  telemetry: Pick<Telemetry, "reconcilerRun"> = noTelemetry,
): { stop(): Promise<void> } {
  const run = () =>
    reconciler.run().then(
      // null: another instance holds the lock and does this round.
      (result) => result && telemetry.reconcilerRun("ok", result.fulfilled),
      (error: unknown) => {
        telemetry.reconcilerRun("error", 0);
        log.error({ err: error }, "payment reconciliation failed; will retry");
      },
    );
  let running: Promise<unknown> = run();
  const timer = setInterval(() => (running = running.then(run)), everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
