import type { Kysely, Transaction } from "kysely";
import type { Schema } from "../db/schema.ts";

type Db = Kysely<Schema> | Transaction<Schema>;

/** Units of one order line (its product id) being refunded. */
export interface LineUnits {
  id: number;
  quantity: number;
}

/** Thrown inside a refund's transaction to roll it back and answer 422 with `message`. */
export class RefundRefused extends Error {
  override readonly name = "RefundRefused";
}

/** Units refunded so far per line of `orderId` (lines never refunded are absent). */
export async function refundedUnits(db: Db, orderId: string): Promise<Map<number, number>> {
  const rows = await db.selectFrom("order_line_refunds").select(["line_id", "refunded"]).where("order_id", "=", orderId).execute();
  return new Map(rows.map((row) => [row.line_id, row.refunded]));
}
