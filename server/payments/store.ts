import { type Kysely, type Selectable, sql, type Transaction } from "kysely";
import { prepared } from "../db/prepared.ts";
import type { PaymentsTable, Schema } from "../db/schema.ts";
import { type BasketLine, type LineJson, lineFromJson, lineJson } from "../orders/order.ts";
import type { IntentStatus } from "./gateway.ts";

export interface Payment {
  id: string;
  userId: string;
  gateway: "test" | "stripe";
  amountCents: number;
  basket: BasketLine[];
  status: IntentStatus;
  clientSecretHash: string | null;
  created: number;
}

/** Stores a new payment. In a transaction on PostgreSQL it goes out with the transaction's next statement (`withNext`). */
export async function insertPayment(db: Kysely<Schema>, payment: Payment): Promise<void> {
  await insertPaymentRow.withNext(db, {
    id: payment.id,
    userId: payment.userId,
    gateway: payment.gateway,
    amount: payment.amountCents,
    basket: JSON.stringify(payment.basket.map(lineJson)),
    status: payment.status,
    clientSecretHash: payment.clientSecretHash,
    created: payment.created,
  });
}

const insertPaymentRow = prepared(
  (db: Kysely<Schema>, p: { id: string; userId: string; gateway: string; amount: number; basket: string; status: string; clientSecretHash: string | null; created: number }) =>
    db.insertInto("payments").values({
      id: p.id,
      user_id: p.userId,
      gateway: p.gateway,
      amount: p.amount,
      currency: "usd",
      basket: p.basket,
      status: p.status,
      client_secret_hash: p.clientSecretHash,
      card_brand: null,
      card_last4: null,
      created: p.created,
      updated: p.created,
    }),
);

export async function findPayment(db: Kysely<Schema>, id: string): Promise<Payment | null> {
  const row = (await paymentById(db, { id })).rows[0];
  return row ? toPayment(row) : null;
}

/**
 * The columns a Payment is made of, named: a statement that selects `*` is not prepared (a
 * migration may change its result type), and the confirmation reads a payment at every checkout.
 */
const PAYMENT_COLUMNS = ["id", "user_id", "gateway", "amount", "basket", "status", "client_secret_hash", "created"] as const;
type PaymentRow = Pick<Selectable<PaymentsTable>, (typeof PAYMENT_COLUMNS)[number]>;

const paymentById = prepared((db: Kysely<Schema>, p: { id: string }) => db.selectFrom("payments").select(PAYMENT_COLUMNS).where("id", "=", p.id));

/** How many stock reservations a payment has, and how many of them still hold their units now. */
export interface PaymentHolds {
  total: number;
  live: number;
}

/**
 * A payment with its reservations counted (`PaymentHolds`), in one read: what a card
 * confirmation needs before it charges. `now` decides which holds are still live.
 */
export async function findPaymentWithHolds(db: Kysely<Schema>, id: string, now: number): Promise<(Payment & { holds: PaymentHolds }) | null> {
  const row = (await paymentWithHolds(db, { id, now })).rows[0];
  return row ? { ...toPayment(row), holds: { total: Number(row.holds_total), live: Number(row.holds_live) } } : null;
}

const paymentWithHolds = prepared((db: Kysely<Schema>, p: { id: string; now: number }) =>
  db
    .selectFrom("payments")
    .select(PAYMENT_COLUMNS)
    .select(sql<number | string>`(select count(*) from reservations r where r.payment_id = payments.id)`.as("holds_total"))
    .select(sql<number | string>`(select count(*) from reservations r where r.payment_id = payments.id and r.state = 'held' and r.expires_at > ${p.now})`.as("holds_live"))
    .where("id", "=", p.id),
);

function toPayment(row: PaymentRow): Payment {
  return {
    id: row.id,
    userId: row.user_id,
    gateway: row.gateway as Payment["gateway"],
    amountCents: row.amount,
    basket: (JSON.parse(row.basket) as LineJson[]).map(lineFromJson),
    status: row.status as IntentStatus,
    clientSecretHash: row.client_secret_hash,
    created: Number(row.created),
  };
}

/**
 * Marks a payment succeeded (with the card's brand and last four, when our server charged it),
 * inside the fulfilment transaction that writes its order. It answers a function telling whether
 * this changed the payment (false when it had already succeeded), to call after the transaction's
 * next statement: on PostgreSQL the update goes out with that statement (no round trip of its own).
 */
export async function markSucceeded(trx: Transaction<Schema>, id: string, details: { card?: { brand: string; last4: string }; now: number }): Promise<() => Promise<boolean>> {
  const answer = details.card
    ? await markSucceededWithCard.withNextAnswered(trx, { id, now: details.now, brand: details.card.brand, last4: details.card.last4 })
    : await markSucceededOnly.withNextAnswered(trx, { id, now: details.now });
  return async () => Number((await answer()).numAffectedRows ?? 0) > 0;
}

const markSucceededOnly = prepared((db: Kysely<Schema>, p: { id: string; now: number }) =>
  db.updateTable("payments").set({ status: "succeeded", updated: p.now }).where("id", "=", p.id).where("status", "!=", "succeeded"),
);

const markSucceededWithCard = prepared((db: Kysely<Schema>, p: { id: string; now: number; brand: string; last4: string }) =>
  db.updateTable("payments").set({ status: "succeeded", updated: p.now, card_brand: p.brand, card_last4: p.last4 }).where("id", "=", p.id).where("status", "!=", "succeeded"),
);

/**
 * A page of the payments of `gateway` still in flight that were not checked since `since` (epoch
 * ms), least recently checked first: a run that marks each one checked goes through them all.
 */
export async function inFlightPage(db: Kysely<Schema>, gateway: Payment["gateway"], since: number, limit: number): Promise<Payment[]> {
  const rows = await db
    .selectFrom("payments")
    .select("id")
    .where("gateway", "=", gateway)
    .where("status", "not in", ["succeeded", "canceled"])
    .where("checked", "<", since)
    .orderBy("checked")
    .orderBy("created")
    .limit(limit)
    .execute();
  const payments = await Promise.all(rows.map((row) => findPayment(db, row.id)));
  return payments.filter((payment) => payment !== null);
}

/** Records that the reconciler asked about `id` at `now`; with `canceled`, that it is cancelled (never once succeeded). */
export async function markChecked(db: Kysely<Schema>, id: string, now: number, canceled = false): Promise<void> {
  await db
    .updateTable("payments")
    .set({ checked: now, ...(canceled ? { status: "canceled", updated: now } : {}) })
    .where("id", "=", id)
    .where("status", "!=", "succeeded")
    .execute();
}

/** Payments (of `gateway`, when given) cancelled unless they have been paid; how many were. */
export async function cancelUnpaid(db: Kysely<Schema> | Transaction<Schema>, ids: string[], now: number, gateway?: Payment["gateway"]): Promise<number> {
  if (ids.length === 0) return 0;
  let query = db.updateTable("payments").set({ status: "canceled", updated: now }).where("id", "in", ids).where("status", "!=", "succeeded");
  if (gateway) query = query.where("gateway", "=", gateway);
  return Number((await query.executeTakeFirst()).numUpdatedRows);
}
