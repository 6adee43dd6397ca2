import { createHash } from "node:crypto";
import type { Kysely } from "kysely";
import { formatCents, lineTotalCents } from "../../lib/basket.ts";
import { type Actor, appendAudit } from "../audit/log.ts";
import type { Schema } from "../db/schema.ts";
import type { Logger } from "../log.ts";
import { enqueueRefundMail } from "../mail/refund.ts";
import type { Telemetry } from "../observability/port.ts";
import type { AdminOrder } from "../orders/admin-store.ts";
import { type LineUnits, RefundRefused } from "../orders/refund-store.ts";
import type { OrdersService } from "../orders/service.ts";
import type { GatewayRefund, PaymentGateway, RefundStatus } from "../payments/gateway.ts";
import type { StockService } from "../stock/stock.ts";
import { inTransaction } from "../stock/transaction.ts";
import { giveBackLineUnits, takeLineUnits } from "./line-units.ts";
import { insertRefund, recordGatewayId, type Refund, refundByGatewayId, refundById, refundByKey, settleRefund, storedLines, unansweredRefunds } from "./store.ts";

/** What the back office asks: these lines' units (none: all that is left), why, and whether the units go back to stock. */
export interface RefundRequest {
  lines?: LineUnits[];
  reason: string;
  restock: boolean;
}

export interface RefundAnswer {
  refund: { id: string; amountCents: number; status: RefundStatus };
}

export type RefundRefusal = { ok: false; status: 404 | 422; message: string };
export type RefundResult = { ok: true; value: RefundAnswer } | RefundRefusal;

export interface RefundsDeps {
  db: Kysely<Schema>;
  orders: OrdersService;
  gateway: PaymentGateway;
  /** Where restocked units go; null where stock is not tracked (a remote catalogue). */
  stock: StockService | null;
  log: Logger;
  /** A refund's mail was written to the outbox (wakes the mail worker). */
  mailWritten?: () => void;
  /** storefront_refunds_total{outcome}: counted once per refund written and once when it settles. */
  telemetry?: Pick<Telemetry, "refund">;
  now?: () => number;
}

const fail = (status: 404 | 422, message: string): RefundRefusal => ({ ok: false, status, message });

/** Stripe's words for a key used again with other parameters. */
const keyReused = (key: string) =>
  `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`;

/**
 * A digest of what a request asks, so the same key with other parameters is told apart from a
 * retry. The lines go in as the refund API names them, so a stored refund's digest stays its own.
 */
const fingerprintOf = (orderId: string, request: RefundRequest): string =>
  createHash("sha256")
    .update(JSON.stringify([orderId, request.lines ? storedLines(request.lines) : null, request.reason, request.restock]))
    .digest("hex");

/**
 * Refunds: exactly once per Idempotency-Key, never past what was paid. The refund is written with
 * its guards, restock and audit entry in one transaction; then the gateway is asked (with an
 * idempotency key of its own); its answer, or its webhook, settles it: succeeded (the shopper's
 * mail goes into the outbox in that transaction) or failed (the amount is given back).
 */
export class RefundsService {
  private readonly now: () => number;

  constructor(private readonly deps: RefundsDeps) {
    this.now = deps.now ?? Date.now;
  }

  async refund(actor: Actor, orderId: string, key: string, request: RefundRequest): Promise<RefundResult> {
    const fingerprint = fingerprintOf(orderId, request);
    let refund = await refundByKey(this.deps.db, key);
    if (!refund) {
      const created = await this.create(actor, orderId, { key, fingerprint, request });
      if (!created.ok) return created;
      refund = created.refund;
    }
    if (refund.fingerprint !== fingerprint) return fail(422, keyReused(key));
    // Asked of the gateway by every request until it has answered: a retry finishes what a crash left.
    if (refund.status === "pending" && refund.gatewayId === null) refund = await this.submit(refund);
    return { ok: true, value: { refund: { id: refund.id, amountCents: refund.amountCents, status: refund.status } } };
  }

  /** What the gateway reports of refunds (Stripe's charge.refunded and refund.* webhooks); replays change nothing. */
  async record(updates: GatewayRefund[]): Promise<void> {
    for (const update of updates) {
      const refund = (update.reference ? await refundById(this.deps.db, update.reference) : null) ?? (await refundByGatewayId(this.deps.db, update.id));
      if (!refund) {
        this.deps.log.warn({ gatewayRefund: update.id }, "the gateway reports a refund the shop did not make; ignored");
        continue;
      }
      if (update.status === "pending") await recordGatewayId(this.deps.db, refund.id, update.id);
      else await this.settle(refund, update.status, update.id);
    }
  }

  /**
   * Asks the gateway again about refunds it never answered (it could not be reached), written
   * before `createdBefore`; the payment reconciler calls it. How many it asked about.
   */
  async resubmit(createdBefore: number, limit = 50): Promise<number> {
    const stale = await unansweredRefunds(this.deps.db, createdBefore, limit);
    for (const refund of stale) await this.submit(refund);
    return stale.length;
  }

  private async create(actor: Actor, orderId: string, asked: { key: string; fingerprint: string; request: RefundRequest }): Promise<{ ok: true; refund: Refund } | RefundRefusal> {
    const order = await this.deps.orders.findAny(orderId);
    if (!order) return fail(404, "No such order.");
    const planned = plan(order, asked.request.lines);
    if (!planned.ok) return planned;
    const now = this.now();
    try {
      const written = await inTransaction(this.deps.db, async (trx) => {
        const refund = await insertRefund(trx, {
          idempotencyKey: asked.key,
          fingerprint: asked.fingerprint,
          orderId,
          amountCents: planned.cents,
          lines: planned.lines,
          reason: asked.request.reason,
          restock: asked.request.restock,
          actor: actor.name,
          created: now,
        });
        // The key was taken by a request that committed meanwhile: its refund is the answer.
        if (!refund) return { ok: true as const, refund: (await refundByKey(trx, asked.key))!, fresh: false };
        // The order as the guarded update left it (a concurrent refund may have come between our read and it).
        await takeLineUnits(trx, order, planned.lines);
        const after = await this.deps.orders.takeRefund(trx, order, planned.cents);
        if (asked.request.restock) await this.deps.stock?.restock(trx, planned.lines);
        const refundedBefore = after.refundedCents - planned.cents;
        await appendAudit(
          trx,
          {
            actor,
            action: "order.refund",
            target: `order:${orderId}`,
            before: { status: refundedBefore > 0 ? "partially_refunded" : order.status, refunded: formatCents(refundedBefore) },
            after: {
              status: after.status,
              refunded: formatCents(after.refundedCents),
              refund: formatCents(planned.cents),
              lines: planned.lines.map((line) => `${line.quantity} × ${line.id}`).join(", "),
              reason: asked.request.reason,
              restock: asked.request.restock,
            },
          },
          now,
        );
        return { ok: true as const, refund, fresh: true };
      });
      if (written.fresh) this.deps.telemetry?.refund("created");
      return written;
    } catch (error) {
      if (error instanceof RefundRefused) return fail(422, error.message);
      throw error;
    }
  }

  /** Asks the gateway; a provider that cannot be reached leaves the refund pending for the next request with its key. */
  private async submit(refund: Refund): Promise<Refund> {
    try {
      const outcome = await this.deps.gateway.refund({ paymentId: refund.orderId, amountCents: refund.amountCents, idempotencyKey: `refund-${refund.id}`, reference: refund.id });
      if (outcome.ok) await this.record([{ id: outcome.id, reference: refund.id, status: outcome.status }]);
      else {
        this.deps.log.warn({ refund: refund.id, reason: outcome.message }, "the gateway refused a refund");
        await this.settle(refund, "failed", null);
      }
    } catch (error) {
      this.deps.log.warn({ err: error, refund: refund.id }, "the gateway could not be asked for a refund; it stays pending");
    }
    return (await refundById(this.deps.db, refund.id)) ?? refund;
  }

  /** Turns a pending refund succeeded (its mail into the outbox) or failed (its amount given back), once. */
  private async settle(refund: Refund, status: "succeeded" | "failed", gatewayId: string | null): Promise<void> {
    const now = this.now();
    const changed = await inTransaction(this.deps.db, async (trx) => {
      if (!(await settleRefund(trx, refund.id, { status, gatewayId, now }))) return false;
      if (status === "succeeded") await enqueueRefundMail(trx, refund, now);
      else {
        await giveBackLineUnits(trx, refund.orderId, refund.lines);
        await this.deps.orders.giveBackRefund(trx, refund.orderId, refund.amountCents);
      }
      return true;
    });
    if (!changed) return;
    this.deps.telemetry?.refund(status);
    this.deps.log.info({ refund: refund.id, order: refund.orderId, amountCents: refund.amountCents, status }, "refund settled");
    if (status === "succeeded") this.deps.mailWritten?.();
  }
}

type Plan = { ok: true; cents: number; lines: LineUnits[] } | RefundRefusal;

/** The cents and units a request refunds: the lines asked, or everything left of the order. */
function plan(order: AdminOrder, asked: LineUnits[] | undefined): Plan {
  if (!asked) {
    const cents = order.amountCents - order.refundedCents;
    if (cents <= 0) return { ok: false, status: 422, message: "Nothing is left to refund of this order." };
    const lines = order.basket
      .map((line) => ({ id: line.id, quantity: line.quantity - (order.linesRefunded[line.id] ?? 0) }))
      .filter((line) => line.quantity > 0);
    return { ok: true, cents, lines };
  }
  if (new Set(asked.map((line) => line.id)).size !== asked.length) return { ok: false, status: 422, message: "Each line may appear only once in a refund." };
  let cents = 0;
  for (const line of asked) {
    const bought = order.basket.find((b) => b.id === line.id);
    if (!bought) return { ok: false, status: 422, message: `Order ${order.id} has no line for product ${line.id}.` };
    cents += lineTotalCents({ priceCents: bought.priceCents, quantity: line.quantity });
  }
  return { ok: true, cents, lines: asked };
}
