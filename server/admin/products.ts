import type { Readable } from "node:stream";
import type { z } from "zod";
import type { Actor } from "../audit/log.ts";
import type { Format } from "../catalogue/transfer/parse.ts";
import type { CatalogueImport } from "./catalogue-file.ts";

/**
 * A product as the back office sees it: the shop's fields, the stock on hand and held by checkouts,
 * the version an edit must start from, and whether it is archived. The price in integer cents.
 */
export interface AdminProduct {
  id: number;
  title: string;
  priceCents: number;
  description: string;
  category: string;
  /** The picture's address on our origin. */
  image: string;
  /** Units on hand; null where stock is not tracked (a remote catalogue). */
  stock: number | null;
  /** Units held by checkouts in progress. */
  reserved: number;
  version: number;
  archived: boolean;
}

/** A product as the back office's API answers it: the price in dollars, as the catalogue API (FakeStore's shape) has it. */
export type AdminProductJson = Omit<AdminProduct, "priceCents"> & { price: number };

export const adminProductJson = ({ priceCents, ...product }: AdminProduct): AdminProductJson => ({ ...product, price: priceCents / 100 });

export const PRODUCT_SORTS = ["id", "stock", "-stock"] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

export interface ProductQuery {
  /** Words of the title (any case); empty for every product. */
  q?: string;
  category?: string;
  sort?: ProductSort;
  /** 1-based. */
  page?: number;
  limit?: number;
}

export interface ProductList {
  products: AdminProduct[];
  total: number;
  page: number;
  pages: number;
  limit: number;
}

export type ProductRefusal = { ok: false; status: 400 | 404 | 409 | 413 | 415 | 422; message: string };
export type ProductWrite = { ok: true; product: AdminProduct } | ProductRefusal;

/** Whether products can be changed here, and when not, why (shown on the page, answered to writes). */
export type ProductSource = { editable: true } | { editable: false; reason: string };

/**
 * The back office's products: one service for the API (products-routes.ts) and the pages (through
 * AdminContext). Every write records `actor` in the audit log in its own transaction and tells every
 * instance which product changed.
 */
export interface ProductsAdmin {
  readonly source: ProductSource;
  list(query: ProductQuery): Promise<ProductList>;
  get(id: number): Promise<AdminProduct | null>;
  categories(): Promise<string[]>;
  create(actor: Actor, input: unknown): Promise<ProductWrite>;
  /** `input` carries the `version` the edit started from; an older one is refused with 409. */
  update(actor: Actor, id: number, input: unknown): Promise<ProductWrite>;
  setArchived(actor: Actor, id: number, archived: boolean, version?: number): Promise<ProductWrite>;
  uploadImage(actor: Actor, id: number, bytes: Uint8Array, version?: number): Promise<ProductWrite>;
  /** Loads the catalogue file a request carries (catalogue-file.ts): the counts, or every bad row and field; nothing is written unless every row is good. */
  importFile(actor: Actor, request: Request): Promise<CatalogueImport>;
  /** Every product on sale as a catalogue file, streamed; null where the catalogue is not the shop's to export. */
  exportFile(format: Format): Readable | null;
}

export const STALE_EDIT = "This product was changed by someone else. Reload to see the changes.";
export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;

export { productEdit, type ProductFields, productFields, TITLE_CONTROL, versionField } from "../catalogue/product-fields.ts";

/** The first problem of `input` against `schema`, as a 400, or the parsed value. */
export function parsed<T extends z.ZodType>(schema: T, input: unknown): { ok: true; value: z.infer<T> } | ProductRefusal {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  // Every rule above words its own message for the person filling in the form.
  return { ok: false, status: 400, message: result.error.issues[0]!.message };
}
