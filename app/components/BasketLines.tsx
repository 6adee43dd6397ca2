import type { PageLine } from "../orders/page-order.ts";
import { ProductCard } from "./ProductCard.tsx";

/** A basket as checkout and the orders list show it: flexed cards (spec section 2, no description), each with its quantity among its details. */
export function BasketLines({ lines, className = "" }: { lines: readonly PageLine[]; className?: string }) {
  return (
    <ul className={`basket-lines ${className}`.trim()}>
      {lines.map((line) => (
        <li key={line.id}>
          <ProductCard product={line} flex headingLevel={3}>
            <p className="basket-lines__quantity">Quantity: {line.quantity}</p>
          </ProductCard>
        </li>
      ))}
    </ul>
  );
}
