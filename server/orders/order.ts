import type { BasketLine } from "../../lib/basket.ts";

export type { BasketLine };

/** Where an order stands: paid (or oversold: paid after its reservation lapsed), then refunded in part or whole. */
export type OrderStatus = "paid" | "oversold" | "partially_refunded" | "refunded";

export const ORDER_STATUSES: readonly OrderStatus[] = ["paid", "partially_refunded", "refunded", "oversold"];

/** An order (spec section 3): keyed by its payment intent id; money in integer cents; created in epoch ms. */
export interface Order {
  id: string;
  amountCents: number;
  created: number;
  basket: BasketLine[];
  status: OrderStatus;
  /** Cents refunded so far; 0 when none. */
  refundedCents: number;
}

/** What payments write: an order before anything has happened to it. */
export type NewOrder = Omit<Order, "status" | "refundedCents">;

/** A basket line in the spec's JSON: its quantity is `amount`. */
export type LineJson = Omit<BasketLine, "quantity"> & { amount: number };

/**
 * An order as the API, the live feed and the stored `basket` column spell it (spec section 3):
 * `amount` is the total in cents, `refunded` the cents refunded, each line's `amount` its quantity.
 */
export interface OrderJson {
  id: string;
  amount: number;
  created: number;
  basket: LineJson[];
  status: OrderStatus;
  refunded: number;
}

/** A line in the spec's JSON shape: every field but the quantity as it is. */
export const lineJson = ({ quantity, ...line }: BasketLine): LineJson => ({ ...line, amount: quantity });

/** A line from the spec's JSON shape. */
export const lineFromJson = ({ amount, ...line }: LineJson): BasketLine => ({ ...line, quantity: amount });

/** The order in the spec's JSON names, field for field: what the API and the live feed send. */
export const orderJson = ({ id, amountCents, created, basket, status, refundedCents }: Order): OrderJson => ({
  id,
  amount: amountCents,
  created,
  basket: basket.map(lineJson),
  status,
  refunded: refundedCents,
});

export const orderStatus = (value: string): OrderStatus => (ORDER_STATUSES.includes(value as OrderStatus) ? (value as OrderStatus) : "paid");
