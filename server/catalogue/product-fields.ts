import { z } from "zod";

// A product's fields as the shop's rules take them, from a back-office form, a JSON body or a row of
// a catalogue file alike: each rule words its own message for the person who wrote the value.

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
