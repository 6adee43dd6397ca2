import { randomBytes } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Schema } from "./schema.ts";

/**
 * The value stored under `key`, generating and storing one the first time. Concurrent first
 * starts (several instances on one PostgreSQL) all end up with the same value: the insert that
 * loses the race is ignored and everybody reads the winner.
 */
export async function generatedSetting(db: Kysely<Schema>, key: string, bytes = 32): Promise<string> {
  await db
    .insertInto("settings")
    .values({ key, value: randomBytes(bytes).toString("base64url") })
    .onConflict((oc) => oc.column("key").doNothing())
    .execute();
  const row = await db.selectFrom("settings").select("value").where("key", "=", key).executeTakeFirstOrThrow();
  return row.value;
}

/** Stores `value` under `key` unless the key is taken; true when this call stored it (of concurrent callers, one). */
export async function claimSetting(db: Kysely<Schema> | Transaction<Schema>, key: string, value: string): Promise<boolean> {
  const result = await db
    .insertInto("settings")
    .values({ key, value })
    .onConflict((oc) => oc.column("key").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}
