import type { BasketLine } from "../../lib/basket.ts";

export type { BasketLine };

/** Where an order stands: paid (or oversold: paid after its reservation lapsed), then refunded in part or whole. */
export type OrderStatus = "paid" | "oversold" | "partially_refunded" | "refunded";

export const ORDER_STATUSES: readonly OrderStatus[] = ["paid", "partially_refunded", "refunded", "oversold"];

/**
 * An order (spec section 3), in its wire shape (the API, the live feed and the pages send it as
 * it is): keyed by its payment intent id; `amount` and `refunded` in integer cents; created in
 * epoch ms.
 */
export interface Order {
  id: string;
  amount: number;
  created: number;
  basket: BasketLine[];
  status: OrderStatus;
  /** Cents refunded so far; 0 when none. */
  refunded: number;
}

/** What payments write: an order before anything has happened to it. */
export type NewOrder = Omit<Order, "status" | "refunded">;

export const orderStatus = (value: string): OrderStatus => (ORDER_STATUSES.includes(value as OrderStatus) ? (value as OrderStatus) : "paid");
