import type { Product } from "../catalogue/product.ts";

/** A basket line (spec section 3): the product as it was priced, in integer cents, and how many. */
export type BasketLine = Pick<Product, "id" | "title" | "image" | "rating" | "priceCents" | "description"> & {
  amount: number;
};

/** An order (spec section 3): keyed by its payment intent id; amount in cents; created in epoch ms. */
export interface Order {
  id: string;
  amount: number;
  created: number;
  basket: BasketLine[];
}
