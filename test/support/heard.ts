// Waiting until a database catalogue has heard a change. Its whole products come from the database
// as they are read, so they show a write at once; its listing facts (what lists are sorted by, what
// the page cache and the sitemaps follow) change only once the catalogue-changed event arrives,
// which on PostgreSQL is some time after the commit.
import { expect, vi } from "vitest";
import type { ListedProduct } from "../../server/catalogue/catalogue.ts";
import type { DatabaseCatalogue } from "../../server/catalogue/database.ts";
import type { AppDatabase } from "../../server/db/database.ts";

/** The listing facts of product `id`, or undefined when it is not listed. */
export const listedOf = async (catalogue: Pick<DatabaseCatalogue, "listed">, id: number): Promise<ListedProduct | undefined> =>
  (await catalogue.listed()).find((p) => p.id === id);

/** Waits until `check` holds for product `id`'s listing facts, then until every change heard is read. */
export async function heardFacts(catalogue: DatabaseCatalogue, id: number, check: (listed: ListedProduct | undefined) => boolean): Promise<void> {
  await vi.waitFor(async () => expect(check(await listedOf(catalogue, id))).toBe(true));
  await catalogue.settled();
}

/**
 * Waits until the catalogue has heard the last write of product `id` as its row stands now (its
 * `updated` stamp, or its archiving), then until every change heard is read.
 */
export async function heardRow(catalogue: DatabaseCatalogue, database: Pick<AppDatabase, "db">, id: number): Promise<void> {
  const row = await database.db.selectFrom("products").select(["updated", "archived_at"]).where("id", "=", id).executeTakeFirstOrThrow();
  if (row.archived_at !== null) await vi.waitFor(async () => expect(await listedOf(catalogue, id)).toBeUndefined());
  else await vi.waitFor(() => expect(catalogue.lastModified().get(id)).toBe(Number(row.updated)));
  await catalogue.settled();
}
