import type { PageOrder } from "../orders/page-order.ts";
import { orderDate } from "../dates.ts";
import { BasketLines } from "./BasketLines.tsx";
import { Price } from "./Price.tsx";

/** One order on the orders page (spec section 2, "Orders"): from the page's loader, or a full order from the live feed or "Show more". */
export function OrderCard({ order }: { order: PageOrder }) {
  const items = order.basket.reduce((sum, line) => sum + line.quantity, 0);
  return (
    <article className="order" aria-label={`Order ${order.id}`}>
      <header className="order__head">
        <dl className="order__facts">
          <div>
            <dt>Order placed</dt>
            <dd>
              <time dateTime={new Date(order.created).toISOString()}>{orderDate(order.created)}</time>
            </dd>
          </div>
          <div>
            <dt>Total</dt>
            <dd>
              <Price cents={order.amountCents} />
            </dd>
          </div>
          <div>
            <dt>Items</dt>
            <dd>{items}</dd>
          </div>
        </dl>
        {/* The order's heading: the page's h1, then each order, then its items' titles. */}
        <h2 className="order__id">
          Order ID <span>{order.id}</span>
        </h2>
      </header>
      {order.refundedCents > 0 && (
        <p className="order__refunded">
          Refunded <Price cents={order.refundedCents} />
          {order.status === "refunded" ? " (in full)" : ""}
        </p>
      )}
      <BasketLines lines={order.basket} className="order__items" />
    </article>
  );
}
