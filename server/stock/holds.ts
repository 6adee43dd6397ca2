// The `reservations` table: a checkout's held units, and what becomes of them (sold, released by
// a newer checkout of the same shopper, expired). Only stock writes it.

import { type Kysely, sql, type Transaction } from "kysely";
import { sellLinesOnPostgres } from "../catalogue/products-table.ts";
import { prepared } from "../db/prepared.ts";
import type { Schema } from "../db/schema.ts";
import type { PaymentHolds } from "../payments/store.ts";

/**
 * This shopper's held reservations, and those of these products that have lapsed, given back in
 * one statement (the shopper's own counts as released, the lapsed ones as expired).
 */
export const giveBack = prepared((db: Kysely<Schema>, p: { userId: string; productIds: number[]; now: number }) =>
  db
    .updateTable("reservations")
    .set({ state: sql<"released" | "expired">`case when user_id = ${p.userId} then 'released' else 'expired' end` })
    .where("state", "=", "held")
    .where((eb) => eb.or([eb("user_id", "=", p.userId), eb.and([eb("product_id", "in", p.productIds), eb("expires_at", "<=", p.now)])]))
    .returning(["payment_id", "product_id", "amount", "state"]),
);

/** A checkout's reservations: `quantities[i]` units of `productIds[i]`, held until `expiresAt`. */
export const insertHolds = prepared((db: Kysely<Schema>, p: { paymentId: string; userId: string; productIds: number[]; quantities: number[]; expiresAt: number; now: number }) =>
  db
    .insertInto("reservations")
    .values(p.productIds.map((id, i) => ({ payment_id: p.paymentId, product_id: id, user_id: p.userId, amount: p.quantities[i]!, state: "held" as const, expires_at: p.expiresAt, created: p.now }))),
);

/** SQLite: a payment's held reservations become sold; answers what each held. */
export const sellHolds = prepared((db: Kysely<Schema>, p: { paymentId: string }) =>
  db.updateTable("reservations").set({ state: "sold" }).where("payment_id", "=", p.paymentId).where("state", "=", "held").returning(["product_id", "amount", "expires_at"]),
);

/**
 * PostgreSQL: a payment's held units sold in one statement: the reservations' update feeds the
 * products' one (products-table.ts), whose rows are locked in id order first.
 */
export const sellHeldOnPostgres = prepared(
  (_db: Kysely<Schema>, p: { paymentId: string; now: number }) => sql<{ id: number; stock: number; live: boolean }>`
    with sold as (update reservations set state = 'sold' where payment_id = ${p.paymentId} and state = 'held' returning product_id, amount, expires_at),
    lines as (select product_id as id, cast(sum(amount) as integer) as units, bool_and(expires_at > ${p.now}) as live from sold group by product_id)
    ${sellLinesOnPostgres(p.now)}`,
);

/** A payment's reservations that lapsed before it was paid, sold all the same; the products they were of. */
export async function sellLapsed(trx: Transaction<Schema>, paymentId: string): Promise<number[]> {
  const rows = await trx.updateTable("reservations").set({ state: "sold" }).where("payment_id", "=", paymentId).returning("product_id").execute();
  return rows.map((row) => row.product_id);
}

/** Marks a payment's held reservations expired; returns them. */
export function lapse(trx: Transaction<Schema>, paymentId: string) {
  return trx.updateTable("reservations").set({ state: "expired" }).where("state", "=", "held").where("payment_id", "=", paymentId).returning(["payment_id", "product_id", "amount"]).execute();
}

/** How many reservations a payment has, and how many are still held at `now`. */
export async function holdsOf(db: Kysely<Schema>, paymentId: string, now: number): Promise<PaymentHolds> {
  const rows = await db.selectFrom("reservations").select(["state", "expires_at"]).where("payment_id", "=", paymentId).execute();
  return { total: rows.length, live: rows.filter((row) => row.state === "held" && Number(row.expires_at) > now).length };
}

/** Payments with held units past their time (at most `limit`). */
export async function lapsedPayments(db: Kysely<Schema>, now: number, limit: number): Promise<string[]> {
  const rows = await db.selectFrom("reservations").select("payment_id").distinct().where("state", "=", "held").where("expires_at", "<=", now).limit(limit).execute();
  return rows.map((row) => row.payment_id);
}
