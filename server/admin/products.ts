import { z } from "zod";
import type { Actor } from "../audit/log.ts";

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
}

export const STALE_EDIT = "This product was changed by someone else. Reload to see the changes.";
export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;

/** A form's text or a JSON number: "" and blanks are missing, not zero. */
const numeric = (message: string) =>
  z.preprocess((value) => (typeof value === "string" ? (value.trim() === "" ? undefined : Number(value.trim())) : value), z.number({ error: message }).finite(message));

const dollars = numeric("Enter the price in dollars, e.g. 19.99.")
  .pipe(z.number().min(0, "The price cannot be negative.").max(1_000_000, "The price can be at most $1,000,000."))
  .refine((price) => Math.abs(price * 100 - Math.round(price * 100)) < 1e-6, "The price can have at most two decimals.");

/** Unicode's control characters (Cc): C0 (tab, CR and LF among them), DEL and C1. */
const CONTROL_CHARACTER = /\p{Cc}/u;
export const TITLE_CONTROL = "The title cannot contain line breaks, tabs or other control characters.";

/** The fields an admin writes, from a JSON body or a form alike: `price` in dollars, as both name it. */
const productInput = z.object({
  // A title is one line of text on every page, mail, audit entry and log line that shows it: a
  // line break or control character in it could forge lines there. Checked before the trim, so
  // a trailing newline is refused too rather than quietly dropped.
  title: z
    .string({ error: "Enter a title." })
    .refine((title) => !CONTROL_CHARACTER.test(title), TITLE_CONTROL)
    .trim()
    .min(1, "Enter a title.")
    .max(500, "The title can be at most 500 characters."),
  price: dollars,
  description: z.string({ error: "Enter a description." }).trim().max(10_000, "The description can be at most 10,000 characters."),
  category: z.string({ error: "Choose a category." }).trim().min(1, "Choose a category."),
  stock: numeric("Enter the stock as a whole number.").pipe(z.number().int("Enter the stock as a whole number.").min(0, "The stock cannot be negative.").max(1_000_000, "The stock can be at most 1,000,000.")),
});

/** The form's and the API's dollars as integer cents: what the shop works in from here on. */
const inCents = <T extends { price: number }>({ price, ...fields }: T): Omit<T, "price"> & { priceCents: number } => ({ ...fields, priceCents: Math.round(price * 100) });

/** The fields an admin writes, parsed: the price in integer cents. */
export const productFields = productInput.transform(inCents);
export type ProductFields = z.output<typeof productFields>;

const VERSION = "version must be the product's version (a whole number).";
export const versionField = numeric(VERSION).pipe(z.number().int(VERSION).min(1, VERSION));
/**
 * An edit: the fields, the version it started from, and (optionally) the stock it started from.
 * With `stockWas`, stock moves by what the admin changed (`stock - stockWas`), so units sold while
 * the form was open are not put back by a save; without it, `stock` is set as given.
 */
export const productEdit = productInput
  .extend({
    version: versionField,
    stockWas: numeric("stockWas must be a whole number.").pipe(z.number().int().min(0)).optional(),
  })
  .transform(inCents);

/** The first problem of `input` against `schema`, as a 400, or the parsed value. */
export function parsed<T extends z.ZodType>(schema: T, input: unknown): { ok: true; value: z.infer<T> } | ProductRefusal {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  // Every rule above words its own message for the person filling in the form.
  return { ok: false, status: 400, message: result.error.issues[0]!.message };
}
