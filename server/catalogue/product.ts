import { z } from "zod";

/** A catalogue product as the shop uses it: money in integer cents. */
export interface Product {
  id: number;
  title: string;
  priceCents: number;
  description: string;
  category: string;
  /** An absolute URL, or a path on our own origin. */
  image: string;
  /**
   * The same picture at several widths, for <img srcset> (remote images, resized on our origin);
   * absent for images that scale by themselves (our SVG drawings).
   */
  imageSrcSet?: string;
  rating: { rate: number; count: number };
  /**
   * Units a shopper can still buy (stock less live reservations, never below 0); absent or null
   * where stock is not tracked (a remote catalogue): unlimited.
   */
  stock?: number | null;
}

/** A product in the FakeStore API's shape: price in dollars. */
export const fakeStoreProduct = z.object({
  id: z.number().int().positive(),
  title: z.string().trim().min(1).max(500),
  price: z.number().finite().nonnegative().max(1_000_000),
  description: z.string().max(10_000),
  category: z.string().trim().min(1).max(100),
  image: z.string().min(1).max(2_000),
  rating: z
    .object({ rate: z.number().min(0).max(5), count: z.number().int().nonnegative() })
    .default({ rate: 0, count: 0 }),
  // Ours: the units available, null where stock is not tracked. FakeStore has none.
  stock: z.number().int().min(0).nullable().optional(),
});
export type FakeStoreProduct = z.infer<typeof fakeStoreProduct>;

/**
 * A product id from a URL segment: a positive whole number of at most 9 digits, or null for
 * anything else ("abc", "1.5", "-1", "0", overflow), which callers answer as not found.
 */
export function parseProductId(raw: string): number | null {
  return /^\d{1,9}$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
}

export function fromFakeStore(raw: FakeStoreProduct): Product {
  const { price, ...rest } = raw;
  return { ...rest, priceCents: Math.round(price * 100) };
}

/** Back to the FakeStore shape, with the image made absolute against `origin`. */
export function toFakeStore(product: Product, origin: string): FakeStoreProduct {
  // Field by field: exactly FakeStore's fields, in its order (our extras, such as imageSrcSet, stay ours).
  const { id, title, priceCents, description, category, image, rating, stock } = product;
  return { id, title, price: priceCents / 100, description, category, image: new URL(image, origin).href, rating, stock: stock ?? null };
}
