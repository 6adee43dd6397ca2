import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import type { Order } from "../../server/orders/order.ts";
import { StoreProvider } from "../basket/store.tsx";
import { pageOrder, pageOrderFromJson, pageOrdersFrom, pageOrdersJson } from "../orders/page-order.ts";
import { OrderCard } from "./OrderCard.tsx";

const order: Order = {
  id: "pi_3AbC",
  amountCents: 2 * 8950 + 64900,
  created: Date.UTC(2026, 10, 22, 3, 7),
  status: "partially_refunded",
  refundedCents: 8950,
  basket: [
    {
      id: 1,
      title: "Waxed Canvas Rucksack",
      image: "/images/products/1.svg?v=abc",
      rating: { rate: 4.2, count: 312 },
      priceCents: 8950,
      description: "A roomy waxed-canvas rucksack with leather straps, a padded laptop sleeve and brass buckles, made to be carried every day for years.",
      quantity: 2,
    },
    { id: 8, title: "Solitaire Ring", image: "/images/products/8.svg?v=def", rating: { rate: 4.6, count: 212 }, priceCents: 64900, description: "A ring.", quantity: 1 },
  ],
};

/** The same order as the API and the live feed send it: the spec's names (`amount`, `refunded`, a line's `amount`). */
const { amountCents, refundedCents, basket, ...rest } = order;
const sent = { ...rest, amount: amountCents, refunded: refundedCents, basket: basket.map(({ quantity, ...line }) => ({ ...line, amount: quantity })) };

const render = (shown: Parameters<typeof OrderCard>[0]["order"]) =>
  renderToStaticMarkup(
    <MemoryRouter>
      <StoreProvider user={null}>
        <OrderCard order={shown} />
      </StoreProvider>
    </MemoryRouter>,
  );

describe("OrderCard", () => {
  it("renders an order from the page's loader exactly as the same order in full (the live feed's, the API's)", () => {
    const [shown] = pageOrdersFrom(pageOrdersJson([order]));
    const html = render(shown!);
    expect(html).toBe(render(order));
    expect(render(pageOrderFromJson(JSON.parse(JSON.stringify(sent))))).toBe(html);
    expect(html).toContain("Order ID <span>pi_3AbC</span>");
    expect(html).toContain("<dt>Items</dt><dd>3</dd>");
    expect(html).toContain("$828.00");
    expect(html).toContain("Refunded <span class=\"price\">$89.50</span>");
    expect(html).toContain("Quantity: 2");
    expect(html).toContain('aria-label="Rated 4.6 out of 5"');
    expect(html).toContain('href="/products/8"');
    expect(html).not.toContain("rucksack with leather straps");
  });

  it("keeps only what the page shows, whatever else an order or a line carries", () => {
    expect(pageOrdersFrom(pageOrdersJson([order, order]))).toEqual([pageOrder(order), pageOrder(order)]);
    const extra = { ...order, placed: 1, basket: order.basket.map((line) => ({ ...line, category: "bags", rating: { ...line.rating, source: "x" } })) };
    expect(pageOrder(extra)).toEqual({
      id: "pi_3AbC",
      amountCents: 82800,
      created: order.created,
      status: "partially_refunded",
      refundedCents: 8950,
      basket: [
        { id: 1, title: "Waxed Canvas Rucksack", image: "/images/products/1.svg?v=abc", rating: { rate: 4.2, count: 312 }, priceCents: 8950, quantity: 2 },
        { id: 8, title: "Solitaire Ring", image: "/images/products/8.svg?v=def", rating: { rate: 4.6, count: 212 }, priceCents: 64900, quantity: 1 },
      ],
    });
  });
});
