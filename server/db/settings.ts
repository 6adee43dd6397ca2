import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
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
