import { useRef } from "react";
import { Link } from "react-router";
import type { Route } from "./+types/cart";
import { subtotalCents } from "../../lib/basket.ts";
import { lineShortText } from "../../lib/stock.ts";
import { useStore } from "../basket/store.tsx";
import { Price } from "../components/Price.tsx";
import { ProductCard } from "../components/ProductCard.tsx";
import { pageMeta } from "../meta.ts";
import { itemCount } from "../text.ts";

export const handle = { shell: true };

export const meta: Route.MetaFunction = () => pageMeta("Shopping basket", "Review the items in your Storefront basket.");

/** What is available of each product whose stock is tracked, to mark lines that ask for more. */
export async function loader({ context }: Route.LoaderArgs) {
  const stock: Record<number, number> = {};
  for (const product of await context.catalogue.list()) if (product.stock != null) stock[product.id] = product.stock;
  return { stock };
}

export default function Cart({ loaderData: { stock } }: Route.ComponentProps) {
  const [{ basket }, dispatch] = useStore();
  // When a line disappears under a keyboard user's focus, focus moves to the basket heading.
  const heading = useRef<HTMLHeadingElement>(null);
  return (
    <div className="cart">
      <section className="cart__lines panel" aria-labelledby="cart-heading">
        <h1 id="cart-heading" className="cart__heading" ref={heading} tabIndex={-1}>
          Hello, Your shopping basket
        </h1>
        {basket.length === 0 ? (
          <>
            <p className="cart__empty">Oops! No item in your cart.</p>
            <p className="cart__back">
              <Link to="/">Continue shopping</Link>
            </p>
          </>
        ) : (
          <ul className="cart__list">
            {basket.map((line) => (
              <li key={line.id} className="cart__line">
                <ProductCard product={line} showDescription headingLevel={2} />
                <div className="quantity" role="group" aria-label={`Quantity of ${line.title}`}>
                  <button
                    type="button"
                    className="quantity__button"
                    aria-label={`Increase quantity of ${line.title}`}
                    onClick={() => dispatch({ type: "ADD_TO_BASKET", item: line })}
                  >
                    +
                  </button>
                  <output className="quantity__value" aria-live="polite" aria-label={`Quantity of ${line.title}`}>
                    {line.quantity}
                  </output>
                  <button
                    type="button"
                    className="quantity__button"
                    aria-label={`Decrease quantity of ${line.title}`}
                    onClick={() => {
                      dispatch({ type: "REMOVE_FROM_BASKET", id: line.id });
                      if (line.quantity === 1) heading.current?.focus();
                    }}
                  >
                    −
                  </button>
                </div>
                {lineShortText(line.quantity, stock[line.id]) && (
                  <p className="error-text cart__short" role="status">
                    {lineShortText(line.quantity, stock[line.id])}
                  </p>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      <aside className="cart__summary panel" aria-label="Basket summary">
        <p className="cart__subtotal" aria-live="polite">
          Subtotal ({itemCount(basket.length)}):{" "}
          <strong>
            <Price cents={subtotalCents(basket)} />
          </strong>
        </p>
        <label className="cart__gift">
          <input type="checkbox" /> This order contains a gift
        </label>
        {/* Nothing to pay for: no way to checkout. */}
        {basket.length > 0 && (
          <Link to="/payment" className="button-primary cart__checkout">
            Continue to checkout
          </Link>
        )}
      </aside>
    </div>
  );
}
