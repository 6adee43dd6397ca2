import type { BasketLine } from "../../lib/basket.ts";

export type { BasketLine };

/**
 * An order (spec section 3), in its wire shape (the API, the live feed and the pages send it as
 * it is): keyed by its payment intent id; `amount` in integer cents; created in epoch ms.
 */
export interface Order {
  id: string;
  amount: number;
  created: number;
  basket: BasketLine[];
}
