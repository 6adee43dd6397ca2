import type { OrderStatus } from "../../server/orders/order.ts";

/** How the back office and the shopper's page name an order's status. */
export const STATUS_LABELS: Record<OrderStatus, string> = {
  paid: "Paid",
  partially_refunded: "Partly refunded",
  refunded: "Refunded",
  oversold: "Oversold",
};

export const isOrderStatus = (value: string | null): value is OrderStatus => value !== null && Object.hasOwn(STATUS_LABELS, value);
