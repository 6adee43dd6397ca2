import type { Kysely, Transaction } from "kysely";
import type { Schema } from "../db/schema.ts";
import { enqueueOrderConfirmation } from "../mail/order-confirmation.ts";
import { type AdminOrder, type AdminOrderFilter, type AdminOrdersPage, findAnyOrder, listAllOrders } from "./admin-store.ts";
import type { OrderEvents } from "./events.ts";
import type { NewOrder, Order } from "./order.ts";
import { decodeCursor } from "../db/cursor.ts";
import { findOrder, giveBackRefund, insertOrder, listOrders, ordersPlacedSince, takeRefund } from "./store.ts";

/** A page of one shopper's orders, newest first; `next` is the cursor of the page after it. */
export interface OrdersPage {
  orders: Order[];
  next: string | null;
}

export type PageResult = { ok: true; value: OrdersPage } | { ok: false; message: string };

/** The first page of a shopper's orders and when it was read (`since`: where the live feed starts). */
export type FirstOrdersPage = OrdersPage & { since: number };

/**
 * Orders: the one place that reads and writes them. Payments place an order inside their
 * fulfilment transaction; the pages, the order API and the live feed read through it.
 */
export class OrdersService {
  constructor(
    private readonly db: Kysely<Schema>,
    private readonly events: OrderEvents,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Writes `order` for `userId` inside `trx` unless it exists (its id is the payment intent id),
   * announces it and queues its confirmation mail (the outbox row commits with the order, or
   * neither does). True when this call wrote it.
   */
  async place(trx: Transaction<Schema>, userId: string, order: NewOrder): Promise<boolean> {
    const now = this.now();
    const placed = await insertOrder(trx, userId, order, now);
    if (!placed) return false;
    await this.events.publish(trx, { type: "placed", userId, orderId: order.id });
    await enqueueOrderConfirmation(trx, userId, order, now);
    return true;
  }

  /** A page of the shopper's orders, strictly after `before` (a previous page's `next`). */
  async page(userId: string, { limit, before }: { limit: number; before?: string }): Promise<PageResult> {
    const cursor = before === undefined ? null : decodeCursor(before);
    if (before !== undefined && !cursor) return { ok: false, message: "before must be a cursor from a previous page's next" };
    const page = await listOrders(this.db, userId, { limit, before: cursor });
    return { ok: true, value: { orders: page.orders, next: page.next } };
  }

  /** The first page for the orders screen, with `since`: when it was read (where the live feed starts). */
  async firstPage(userId: string, limit: number): Promise<FirstOrdersPage> {
    const since = this.now();
    const page = await listOrders(this.db, userId, { limit });
    return { orders: page.orders, next: page.next, since };
  }

  /** One of the shopper's orders, with when it was written; null for an unknown order or someone else's. */
  find(userId: string, id: string): Promise<(Order & { placed: number }) | null> {
    return findOrder(this.db, userId, id);
  }

  /** The shopper's orders written at or after `placedSince`, in the order they were written. */
  placedSince(userId: string, placedSince: number): Promise<Array<Order & { placed: number }>> {
    return ordersPlacedSince(this.db, userId, placedSince);
  }

  /** The back office: every customer's orders, newest first, by status and by email. */
  all(filter: AdminOrderFilter): Promise<AdminOrdersPage> {
    return listAllOrders(this.db, filter);
  }

  /** The back office: any order, with its customer, payment and refunded units; null when none. */
  findAny(id: string): Promise<AdminOrder | null> {
    return findAnyOrder(this.db, id);
  }

  /**
   * Inside a refund's transaction: takes `cents` off what is left to refund (throws RefundRefused
   * past what was paid), and tells the shopper's open pages.
   */
  async takeRefund(trx: Transaction<Schema>, order: AdminOrder, cents: number): Promise<{ refundedCents: number; status: string }> {
    const after = await takeRefund(trx, order.id, cents);
    await this.events.publish(trx, { type: "updated", userId: order.customer.id, orderId: order.id });
    return after;
  }

  /** Inside the transaction that records a refund's failure: what it had taken may be refunded again. */
  async giveBackRefund(trx: Transaction<Schema>, orderId: string, cents: number): Promise<void> {
    const userId = await giveBackRefund(trx, orderId, cents);
    if (userId) await this.events.publish(trx, { type: "updated", userId, orderId });
  }
}
