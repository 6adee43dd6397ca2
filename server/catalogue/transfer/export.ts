// A catalogue file made from the shop's database, in the shapes an import reads: the products on
// sale (archived ones stay out, as they are out of the shop), read a page at a time and written as
// they come, so memory holds one page whatever the catalogue's size.

import { once } from "node:events";
import { Readable } from "node:stream";
import { stringify } from "csv-stringify";
import type { Kysely } from "kysely";
import type { Schema } from "../../db/schema.ts";
import { COLUMNS } from "./fields.ts";
import type { Format } from "./parse.ts";

/** A product as catalogue/products.json has it: price in dollars, the image as the products table names it. */
export interface FileProduct {
  id: number;
  title: string;
  price: number;
  description: string;
  category: string;
  image: string;
  rating: { rate: number; count: number };
  stock: number;
}

const PAGE = 1_000;

/** Every product on sale, by ascending id, a page (by id, not by offset) at a time. */
export async function* productsOnSale(db: Kysely<Schema>): AsyncGenerator<FileProduct> {
  for (let after = 0; ; ) {
    const rows = await db
      .selectFrom("products")
      .select(["id", "title", "price_cents", "description", "category", "image", "rating_rate", "rating_count", "stock"])
      .where("archived_at", "is", null)
      .where("id", ">", after)
      .orderBy("id")
      .limit(PAGE)
      .execute();
    for (const row of rows) {
      const { id, title, description, category, image, stock } = row;
      yield { id, title, price: row.price_cents / 100, description, category, image, rating: { rate: Number(row.rating_rate), count: row.rating_count }, stock };
    }
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!.id;
  }
}

/** An array of products, laid out as catalogue/products.json is. */
async function* jsonText(products: AsyncIterable<FileProduct>): AsyncGenerator<string> {
  let first = true;
  yield "[";
  for await (const product of products) {
    // JSON.stringify escapes the line breaks within strings, so each raw one is the layout's.
    yield `${first ? "\n" : ",\n"}  ${JSON.stringify(product, null, 2).replaceAll("\n", "\n  ")}`;
    first = false;
  }
  yield first ? "]\n" : "\n]\n";
}

const csvRecord = ({ rating, ...product }: FileProduct) => ({ ...product, rating_rate: rating.rate, rating_count: rating.count });

/** A header row, then a row a product, written as fast as the reader takes them. */
function csvText(products: AsyncIterable<FileProduct>): Readable {
  const out = stringify({ header: true, columns: [...COLUMNS] });
  void (async () => {
    try {
      for await (const product of products) {
        if (out.destroyed) return;
        if (!out.write(csvRecord(product))) await Promise.race([once(out, "drain"), once(out, "close")]);
      }
      out.end();
    } catch (error) {
      out.destroy(error as Error);
    }
  })();
  return out;
}

/** The catalogue file of every product on sale in `format`; `onProduct` hears each product as it goes out. */
export function exportProducts(db: Kysely<Schema>, format: Format, onProduct?: (count: number) => void): Readable {
  async function* counted(): AsyncGenerator<FileProduct> {
    let count = 0;
    for await (const product of productsOnSale(db)) {
      yield product;
      onProduct?.(++count);
    }
  }
  return format === "json" ? Readable.from(jsonText(counted())) : csvText(counted());
}
