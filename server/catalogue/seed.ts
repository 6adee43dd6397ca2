import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Transaction } from "kysely";
import { z } from "zod";
import type { AppDatabase } from "../db/database.ts";
import type { Schema } from "../db/schema.ts";
import { claimSetting } from "../db/settings.ts";
import { fakeStoreProduct } from "./product.ts";
import { insertProducts } from "./products-table.ts";

const PRODUCTS_FILE = fileURLToPath(new URL("../../catalogue/products.json", import.meta.url));
const SEEDED_KEY = "catalogue_seeded";

/** An entry of catalogue/products.json: FakeStore's shape, a drawing's file name, and its first stock. */
const seedEntry = fakeStoreProduct.extend({ stock: z.number().int().min(0) });
export type SeedEntry = z.infer<typeof seedEntry>;

export function readSeed(file = PRODUCTS_FILE): SeedEntry[] {
  return z.array(seedEntry).parse(JSON.parse(fs.readFileSync(path.resolve(file), "utf8")));
}

/** Categories not there yet (a name already there is left as it is): the seed's, and those of a catalogue loaded from a file. */
export async function addCategories(trx: Transaction<Schema>, names: string[]): Promise<void> {
  if (names.length === 0) return;
  await trx
    .insertInto("categories")
    .values(names.map((name) => ({ name })))
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
}

/**
 * Puts the embedded catalogue into the database at the first start, once: a marker in `settings`
 * is inserted in the same transaction as the products. A later start finds the marker and leaves
 * the products as they are (changed, sold or deleted since); two instances starting at once both
 * try the marker's insert, and PostgreSQL makes the second wait for the first's commit and then
 * insert nothing (`on conflict do nothing`). True when this call seeded.
 */
export async function seedCatalogue(database: Pick<AppDatabase, "db">, entries: SeedEntry[] = readSeed(), now = Date.now()): Promise<boolean> {
  return database.db.transaction().execute(async (trx) => {
    if (!(await claimSetting(trx, SEEDED_KEY, String(now)))) return false;
    await addCategories(trx, [...new Set(entries.map((entry) => entry.category))]);
    await insertProducts(
      trx,
      entries.map((entry) => ({
        id: entry.id,
        title: entry.title,
        price_cents: Math.round(entry.price * 100),
        description: entry.description,
        category: entry.category,
        image: entry.image,
        rating_rate: entry.rating.rate,
        rating_count: entry.rating.count,
        stock: entry.stock,
        reserved: 0,
        updated: now,
      })),
    );
    return true;
  });
}
