// One row of a catalogue file, checked by the back office's own rules for a product (title, price,
// description, category, stock) and the few fields only a file carries (id, image, rating).

import { z } from "zod";
import type { Problem } from "../../../lib/catalogue-file.ts";
import { productFields } from "../product-fields.ts";
import { UPLOADED } from "../uploaded-images.ts";

export type { Problem };

/** A file's columns: catalogue/products.json's fields, the rating's two as CSV names them. */
export const COLUMNS = ["id", "title", "price", "description", "category", "image", "rating_rate", "rating_count", "stock"] as const;
export type Column = (typeof COLUMNS)[number];

/** The columns every CSV file needs (the others may be left out). */
export const REQUIRED_COLUMNS: readonly Column[] = ["title", "price", "description", "category", "stock"];

/** A row as read, before it is checked: CSV's text or JSON's values, by column. */
export type RawRow = Partial<Record<Column, unknown>>;

/** A checked row: price in cents; no id for a product to add under a new id, no rating to keep the product's own. */
export interface ProductRow {
  id?: number;
  title: string;
  priceCents: number;
  description: string;
  category: string;
  image: string;
  ratingRate?: number;
  ratingCount?: number;
  stock: number;
}


/** A CSV cell's text as a number; an empty cell is no value. */
const numberOf = (value: unknown) => (typeof value === "string" ? (value.trim() === "" ? undefined : Number(value.trim())) : value);
const ID = "The id must be a whole number from 1 to 999,999,999, or empty for a new product.";
const RATE = "The rating must be a number from 0 to 5.";
const COUNT = "The rating count must be a whole number from 0 to 2,147,483,647.";
const IMAGE = "The image must be a drawing's file name, an uploaded picture (upload:…), an http(s) address, or empty.";

/** A picture's reference as the products table keeps it; whether it exists is not checked. */
export function isImageReference(image: string): boolean {
  if (image === "" || /^[\w][\w.-]*$/.test(image)) return true;
  if (image.startsWith(UPLOADED)) return /^[\w-]+$/.test(image.slice(UPLOADED.length));
  try {
    const url = new URL(image);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

const fileFields = z.object({
  id: z.preprocess(numberOf, z.number({ error: ID }).int(ID).min(1, ID).max(999_999_999, ID).optional()),
  // The form's rules say whether there is a category; the column holds at most 100 characters.
  category: z.unknown().refine((name) => typeof name !== "string" || name.trim().length <= 100, "The category can be at most 100 characters."),
  image: z.string({ error: IMAGE }).max(2_000, "The image can be at most 2,000 characters.").refine(isImageReference, IMAGE).optional(),
  rating_rate: z.preprocess(numberOf, z.number({ error: RATE }).min(0, RATE).max(5, RATE).optional()),
  rating_count: z.preprocess(numberOf, z.number({ error: COUNT }).int(COUNT).min(0, COUNT).max(2_147_483_647, COUNT).optional()),
});

/** The column a problem names, as the file's format writes it. */
export const fieldName = (column: string, format: "json" | "csv") => (format === "json" ? column.replace(/^rating_/, "rating.") : column);

/** Row `row` checked: the product's values, or each bad field's first problem. */
export function checkFields(raw: RawRow, row: number, format: "json" | "csv"): { ok: true; value: ProductRow } | { ok: false; problems: Problem[] } {
  const form = productFields.safeParse(raw);
  const file = fileFields.safeParse(raw);
  if (form.success && file.success) {
    const { id, image, rating_rate, rating_count } = file.data;
    return { ok: true, value: { ...form.data, id, image: image ?? "", ratingRate: rating_rate, ratingCount: rating_count } };
  }
  const problems = new Map<string, Problem>();
  for (const issue of [...(form.error?.issues ?? []), ...(file.error?.issues ?? [])]) {
    const field = fieldName(String(issue.path[0] ?? ""), format);
    if (!problems.has(field)) problems.set(field, { row, field, message: issue.message });
  }
  return { ok: false, problems: [...problems.values()] };
}
