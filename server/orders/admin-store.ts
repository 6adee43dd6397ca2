import type { Kysely } from "kysely";
import { decodeCursor, olderThan, pageOf } from "../db/cursor.ts";
import type { Schema } from "../db/schema.ts";
import type { Order, OrderStatus } from "./order.ts";
import { refundedUnits } from "./refund-store.ts";
import { toOrder } from "./store.ts";

/** An order as the back office lists it: whose, and where it stands. */
export interface AdminOrderSummary {
  id: string;
  created: number;
  email: string;
  amountCents: number;
  refundedCents: number;
  status: OrderStatus;
  items: number;
}

export interface AdminOrderFilter {
  status?: OrderStatus;
  email?: string;
  limit: number;
  before?: string;
}

export type AdminOrdersPage = { ok: true; orders: AdminOrderSummary[]; next: string | null } | { ok: false; message: string };

/** One order as the back office's order page shows it (refunds and the timeline come from their own stores). */
export interface AdminOrder extends Order {
  placed: number;
  customer: { id: string; email: string };
  /** Units refunded so far per line (product id). */
  linesRefunded: Record<number, number>;
  payment: { gateway: string; brand: string | null; last4: string | null } | null;
}

const ORDER_COLUMNS = ["o.id", "o.amount", "o.created", "o.basket", "o.status", "o.refunded"] as const;

/** Every customer's orders, newest first, a page at a time, by status and by the customer's email. */
export async function listAllOrders(db: Kysely<Schema>, filter: AdminOrderFilter): Promise<AdminOrdersPage> {
  const cursor = filter.before === undefined ? null : decodeCursor(filter.before);
  if (filter.before !== undefined && !cursor) return { ok: false, message: "before must be a cursor from a previous page." };
  let query = db.selectFrom("orders as o").innerJoin("user as u", "u.id", "o.user_id").select([...ORDER_COLUMNS, "u.email"]);
  if (filter.status) query = query.where("o.status", "=", filter.status);
  if (filter.email) query = query.where("u.email", "=", filter.email.trim().toLowerCase());
  if (cursor) query = query.where(olderThan(cursor, "o.created", "o.id"));
  const rows = await query.orderBy("o.created", "desc").orderBy("o.id", "desc").limit(filter.limit + 1).execute();
  const page = pageOf(rows, filter.limit, (row) => ({ at: Number(row.created), id: row.id }));
  return {
    ok: true,
    next: page.next,
    orders: page.rows.map((row) => {
      const order = toOrder(row);
      const items = order.basket.reduce((sum, line) => sum + line.quantity, 0);
      return { id: order.id, created: order.created, email: row.email, amountCents: order.amountCents, refundedCents: order.refundedCents, status: order.status, items };
    }),
  };
}

/** One order with its customer, payment and refunded units; null when there is none. */
export async function findAnyOrder(db: Kysely<Schema>, id: string): Promise<AdminOrder | null> {
  const row = await db
    .selectFrom("orders as o")
    .innerJoin("user as u", "u.id", "o.user_id")
    .leftJoin("payments as p", "p.id", "o.id")
    .select([...ORDER_COLUMNS, "o.placed", "o.user_id", "u.email", "p.gateway", "p.card_brand", "p.card_last4"])
    .where("o.id", "=", id)
    .executeTakeFirst();
  if (!row) return null;
  return {
    ...toOrder(row),
    placed: Number(row.placed),
    customer: { id: row.user_id, email: row.email },
    linesRefunded: Object.fromEntries(await refundedUnits(db, id)),
    payment: row.gateway === null ? null : { gateway: row.gateway, brand: row.card_brand, last4: row.card_last4 },
  };
}
