import type { Kysely, Transaction } from "kysely";
import type { Schema } from "../db/schema.ts";

/** Thrown inside a stock transaction to roll it back and answer `refusal` instead. */
export class StockRefused extends Error {
  override readonly name = "StockRefused";
  constructor(readonly refusal: { ok: false; status: 409; message: string; code: string }) {
    super(refusal.message);
  }
}

/** PostgreSQL's deadlock and serialization failures: the transaction did nothing and may run again. */
const RETRYABLE = new Set(["40P01", "40001"]);
const ATTEMPTS = 5;

/**
 * Runs `work` in a transaction, again (up to a few times) when PostgreSQL rolled it back for a
 * deadlock: stock updates lock rows in id order, but a shopper's released reservation and the
 * sweeper may still cross another checkout now and then.
 */
export async function inTransaction<T>(db: Kysely<Schema>, work: (trx: Transaction<Schema>) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (attempt >= ATTEMPTS || typeof code !== "string" || !RETRYABLE.has(code)) throw error;
    }
  }
}
