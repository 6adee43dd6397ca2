import { useEffect, useRef } from "react";
import { Link, useFetcher } from "react-router";
import type { Route } from "./+types/cart";
import { type BasketLine, subtotalCents } from "../../lib/basket.ts";
import { lineShortText } from "../../lib/stock.ts";
import { useStore } from "../basket/store.tsx";
import { Price } from "../components/Price.tsx";
import { ProductCard } from "../components/ProductCard.tsx";
import { pageMeta } from "../meta.ts";
import { itemCount } from "../text.ts";

export const handle = { shell: true };

export const meta: Route.MetaFunction = () => pageMeta("Shopping basket", "Review the items in your Storefront basket.");

/** The most lines whose stock one request asks for. */
const MAX_LINES = 500;

/**
 * What is available of the products `?ids=` names (the basket's, which only the browser knows)
 * whose stock is tracked, to mark lines that ask for more. The page itself asks for none: a
 * basket is never in a first load.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const ids = (new URL(request.url).searchParams.get("ids") ?? "")
    .split(",")
    .slice(0, MAX_LINES)
    .map(Number)
    .filter((id) => Number.isSafeInteger(id) && id > 0);
  const stock: Record<number, number> = {};
  for (const product of await context.catalogue.products(ids)) if (product.stock != null) stock[product.id] = product.stock;
  return { stock };
}

export default function Cart() {
  const [{ basket }, dispatch] = useStore();
  const lines = useFetcher<typeof loader>();
  const ids = basket.map((line) => line.id).join(",");
  // Asked again whenever the basket's products change (a quantity alone needs no new figures).
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `lines` is a new object each render; `load` is what runs
  useEffect(() => void (ids && lines.load(`/cart?ids=${ids}`)), [ids]);
  const stock = lines.data?.stock ?? {};
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
      <Summary basket={basket} />
    </div>
  );
}

function Summary({ basket }: { basket: readonly BasketLine[] }) {
  return (
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
  );
}
