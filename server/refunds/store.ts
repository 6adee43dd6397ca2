import { randomUUID } from "node:crypto";
import type { Kysely, Selectable, Transaction } from "kysely";
import type { RefundsTable, Schema } from "../db/schema.ts";
import type { LineUnits } from "../orders/refund-store.ts";

type Db = Kysely<Schema> | Transaction<Schema>;

/** One refund as the shop keeps it: its cents, and the units of each line. */
export interface Refund {
  id: string;
  idempotencyKey: string;
  fingerprint: string;
  orderId: string;
  amountCents: number;
  lines: LineUnits[];
  reason: string;
  restock: boolean;
  status: RefundsTable["status"];
  gatewayId: string | null;
  actor: string;
  created: number;
  settled: number | null;
}

export type NewRefund = Pick<Refund, "idempotencyKey" | "fingerprint" | "orderId" | "amountCents" | "lines" | "reason" | "restock" | "actor" | "created">;

/**
 * Writes the refund unless its Idempotency-Key is taken: the key is unique, so of any number of
 * concurrent requests with it one writes and the others meet its row (on PostgreSQL they wait for
 * the first transaction and find its row once it commits). The new refund, or null.
 */
export async function insertRefund(trx: Transaction<Schema>, refund: NewRefund): Promise<Refund | null> {
  const row = await trx
    .insertInto("refunds")
    .values({
      id: randomUUID(),
      idempotency_key: refund.idempotencyKey,
      fingerprint: refund.fingerprint,
      order_id: refund.orderId,
      amount: refund.amountCents,
      lines: JSON.stringify(storedLines(refund.lines)),
      reason: refund.reason,
      restock: refund.restock ? 1 : 0,
      status: "pending",
      gateway_id: null,
      actor: refund.actor,
      created: refund.created,
      settled: null,
    })
    .onConflict((oc) => oc.column("idempotency_key").doNothing())
    .returningAll()
    .executeTakeFirst();
  return row ? toRefund(row) : null;
}

export async function refundByKey(db: Db, key: string): Promise<Refund | null> {
  const row = await db.selectFrom("refunds").selectAll().where("idempotency_key", "=", key).executeTakeFirst();
  return row ? toRefund(row) : null;
}

export async function refundById(db: Db, id: string): Promise<Refund | null> {
  const row = await db.selectFrom("refunds").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toRefund(row) : null;
}

export async function refundByGatewayId(db: Db, gatewayId: string): Promise<Refund | null> {
  const row = await db.selectFrom("refunds").selectAll().where("gateway_id", "=", gatewayId).executeTakeFirst();
  return row ? toRefund(row) : null;
}

/** An order's refunds, oldest first. */
export async function refundsOf(db: Db, orderId: string): Promise<Refund[]> {
  const rows = await db.selectFrom("refunds").selectAll().where("order_id", "=", orderId).orderBy("created").orderBy("id").execute();
  return rows.map(toRefund);
}

/** Refunds the gateway has not answered yet, written before `createdBefore`, oldest first. */
export async function unansweredRefunds(db: Db, createdBefore: number, limit: number): Promise<Refund[]> {
  const rows = await db
    .selectFrom("refunds")
    .selectAll()
    .where("status", "=", "pending")
    .where("gateway_id", "is", null)
    .where("created", "<=", createdBefore)
    .orderBy("created")
    .limit(limit)
    .execute();
  return rows.map(toRefund);
}

/** Records the gateway's id for a refund that has none yet (the first answer wins; the rest are the same refund). */
export async function recordGatewayId(db: Db, id: string, gatewayId: string): Promise<void> {
  await db.updateTable("refunds").set({ gateway_id: gatewayId }).where("id", "=", id).where("gateway_id", "is", null).execute();
}

/**
 * Turns a pending refund succeeded or failed, once: true when this call did (a replayed
 * notification finds it settled and changes nothing).
 */
export async function settleRefund(trx: Transaction<Schema>, id: string, outcome: { status: "succeeded" | "failed"; gatewayId: string | null; now: number }): Promise<boolean> {
  const result = await trx
    .updateTable("refunds")
    .set((eb) => ({ status: outcome.status, settled: outcome.now, gateway_id: eb.fn.coalesce("gateway_id", eb.val(outcome.gatewayId)) }))
    .where("id", "=", id)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A line as the `lines` column keeps it: in the refund API's names (`amount` is the units). */
export interface StoredLine {
  id: number;
  amount: number;
}

/** `lines` as the `lines` column keeps them (and as a request's fingerprint is made of them). */
export const storedLines = (lines: readonly LineUnits[]): StoredLine[] => lines.map(({ id, quantity }) => ({ id, amount: quantity }));

function toRefund(row: Selectable<RefundsTable>): Refund {
  return {
    id: row.id,
    idempotencyKey: row.idempotency_key,
    fingerprint: row.fingerprint,
    orderId: row.order_id,
    amountCents: row.amount,
    lines: (JSON.parse(row.lines) as StoredLine[]).map(({ id, amount }) => ({ id, quantity: amount })),
    reason: row.reason,
    restock: Number(row.restock) === 1,
    status: row.status,
    gatewayId: row.gateway_id,
    actor: row.actor,
    created: Number(row.created),
    settled: row.settled === null ? null : Number(row.settled),
  };
}
