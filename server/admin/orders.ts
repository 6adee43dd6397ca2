import type { Kysely } from "kysely";
import { formatCents } from "../../lib/basket.ts";
import type { Schema } from "../db/schema.ts";
import { mailFor, type OutboxEntry } from "../mail/outbox.ts";
import type { AdminOrder, AdminOrderFilter, AdminOrdersPage } from "../orders/admin-store.ts";
import type { OrdersService } from "../orders/service.ts";
import type { RefundRequest, RefundResult, RefundsService } from "../refunds/service.ts";
import { type Refund, refundsOf } from "../refunds/store.ts";
import type { Actor } from "../audit/log.ts";

/** One thing that happened to an order, as its page lists them. */
export interface TimelineEntry {
  at: number;
  text: string;
}

/** A refund as the order page shows it. */
export type RefundView = Pick<Refund, "id" | "amountCents" | "lines" | "reason" | "restock" | "status" | "gatewayId" | "actor" | "created" | "settled">;

export interface AdminOrderDetail {
  order: AdminOrder;
  refunds: RefundView[];
  timeline: TimelineEntry[];
}

const MAIL_NAMES: Record<string, string> = { order_confirmation: "Order confirmation", refund: "Refund mail" };

/** What happened to an order, oldest first: paid, written, each refund asked and settled, each mail. */
export function timelineOf(order: AdminOrder, refunds: RefundView[], mail: OutboxEntry[]): TimelineEntry[] {
  const card = order.payment?.brand ? ` by ${order.payment.brand} ending in ${order.payment.last4}` : "";
  const entries: TimelineEntry[] = [
    { at: order.created, text: `Paid ${formatCents(order.amountCents)}${card}` },
    { at: order.placed, text: "Order written" },
  ];
  for (const refund of refunds) {
    entries.push({ at: refund.created, text: `Refund of ${formatCents(refund.amountCents)} asked by ${refund.actor}: ${refund.reason}${refund.restock ? " (restocked)" : ""}` });
    if (refund.settled !== null) entries.push({ at: refund.settled, text: `Refund of ${formatCents(refund.amountCents)} ${refund.status}` });
  }
  for (const message of mail) {
    const name = MAIL_NAMES[message.kind] ?? message.kind;
    if (message.sent_at !== null) entries.push({ at: message.sent_at, text: `${name} sent to ${message.recipient}` });
    else entries.push({ at: message.created, text: `${name} to ${message.recipient}: ${message.status}` });
  }
  return entries.sort((a, b) => a.at - b.at);
}

/** The back office's orders: every customer's, one in detail, and refunds. */
export class AdminOrders {
  constructor(
    private readonly db: Kysely<Schema>,
    private readonly orders: OrdersService,
    private readonly refunds: RefundsService,
  ) {}

  page(filter: AdminOrderFilter): Promise<AdminOrdersPage> {
    return this.orders.all(filter);
  }

  async detail(id: string): Promise<AdminOrderDetail | null> {
    const order = await this.orders.findAny(id);
    if (!order) return null;
    const refunds: RefundView[] = (await refundsOf(this.db, id)).map(({ idempotencyKey: _key, fingerprint: _fingerprint, orderId: _order, ...view }) => view);
    const mail = await mailFor(this.db, [id, ...refunds.map((refund) => refund.id)]);
    return { order, refunds, timeline: timelineOf(order, refunds, mail) };
  }

  refund(actor: Actor, orderId: string, idempotencyKey: string, request: RefundRequest): Promise<RefundResult> {
    return this.refunds.refund(actor, orderId, idempotencyKey, request);
  }
}
