import type { BasketLine } from "../../lib/basket.ts";
import type { Order, OrderJson } from "../../server/orders/order.ts";

export type { OrderJson };

/**
 * What the orders page shows of a basket line: a flexed product card without its description
 * (spec section 2, "Checkout and orders: flexed cards"), and the quantity.
 */
export type PageLine = Pick<BasketLine, "id" | "title" | "image" | "rating" | "priceCents" | "quantity">;

/** What the orders page shows of an order: a full Order (the live feed's, "Show more"'s) is one too. */
export interface PageOrder extends Pick<Order, "id" | "amountCents" | "created" | "status" | "refundedCents"> {
  basket: PageLine[];
}

/**
 * `order` as the page's loader sends it: only what the page renders. Each line's description was
 * about a third of the page's data answer, encoded, compressed and sent for every visit and never
 * shown. Fields are picked, not dropped, so a field added to Order later stays off the page's
 * answer until the page shows it.
 */
export function pageOrder({ id, amountCents, created, status, refundedCents, basket }: Order): PageOrder {
  return {
    id,
    amountCents,
    created,
    status,
    refundedCents,
    basket: basket.map(({ id, title, image, rating, priceCents, quantity }) => ({ id, title, image, rating: { rate: rating.rate, count: rating.count }, priceCents, quantity })),
  };
}

/** What the page's JSON keeps of an order: the API's names, each line without its description. */
type PageOrderJson = Omit<OrderJson, "basket"> & { basket: Array<Omit<OrderJson["basket"][number], "description">> };

/** An order as the orders API, the live feed and the page's loader send it (the spec's names: `amount`, `refunded`, a line's `amount`), as the page keeps it. */
export const pageOrderFromJson = ({ amount, refunded, basket, ...order }: PageOrderJson): PageOrder => ({
  ...order,
  amountCents: amount,
  refundedCents: refunded,
  basket: basket.map(({ amount: quantity, ...line }) => ({ ...line, quantity })),
});

/** A PageOrder in the API's names. */
const pageOrderJson = ({ amountCents, refundedCents, basket, ...order }: PageOrder): PageOrderJson => ({
  ...order,
  amount: amountCents,
  refunded: refundedCents,
  basket: basket.map(({ quantity, ...line }) => ({ ...line, amount: quantity })),
});

/**
 * The page's orders as its loader hands them to React Router: one JSON text, parsed back by the
 * page (pageOrdersFrom). React Router encodes loader data with turbo-stream value by value (each
 * string and number looked up, stringified and joined, each object through its plugins): a page
 * of 10 orders took 233 µs of the data request's main thread, the same orders as one JSON text
 * 75 µs (JSON.stringify is native), and the browser's decoding is cheaper the same way.
 */
export const pageOrdersJson = (orders: readonly Order[]): string => JSON.stringify(orders.map((order) => pageOrderJson(pageOrder(order))));

/** The page's orders from the loader's JSON text (pageOrdersJson). */
export const pageOrdersFrom = (json: string): PageOrder[] => (JSON.parse(json) as PageOrderJson[]).map(pageOrderFromJson);
