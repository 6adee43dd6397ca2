import { useEffect, useState } from "react";
import { useLocation } from "react-router";
import type { Route } from "./+types/orders";
import { requireUser } from "../auth/guard.ts";
import { Link } from "../components/Link.tsx";
import { OrderCard } from "../components/OrderCard.tsx";
import { pageMeta } from "../meta.ts";
import { type OrderJson, type PageOrder, pageOrderFromJson, pageOrdersFrom, pageOrdersJson } from "../orders/page-order.ts";

export const handle = { shell: false };

export const meta: Route.MetaFunction = () => pageMeta("Your Orders", "Your Storefront orders.");

const PAGE = 10;

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context.user, "/orders");
  const { orders, next, since } = await context.orders.firstPage(user.uid, PAGE);
  return { orders: pageOrdersJson(orders), next, since };
}

/** Spec section 7: newest first by created; ties by id, as the server pages them. */
const newestFirst = (a: PageOrder, b: PageOrder) => b.created - a.created || (b.id < a.id ? -1 : b.id > a.id ? 1 : 0);

export default function Orders({ loaderData }: Route.ComponentProps) {
  const placed = (useLocation().state as { message?: string } | null)?.message;
  return (
    <section className="orders" aria-labelledby="orders-heading">
      <h1 id="orders-heading">Your Orders</h1>
      {placed && (
        <p className="orders__placed" role="status">
          {placed}
        </p>
      )}
      {/* A fresh list (and feed) whenever the loader reads the orders again. */}
      <OrderList key={loaderData.since} {...loaderData} />
    </section>
  );
}

// Full orders (the live feed's, the API's next pages) come in the API's names and join the page's
// own through pageOrderFromJson, and render the same (app/components/OrderCard.test.tsx).
function OrderList({ orders: first, next: firstNext, since }: { orders: string; next: string | null; since: number }) {
  const [orders, setOrders] = useState(() => pageOrdersFrom(first));
  const [next, setNext] = useState(firstNext);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);

  // The live feed: new orders appear without a reload, in every open tab, each only once.
  useEffect(() => {
    const source = new EventSource(`/api/orders/stream?since=${since}`);
    source.addEventListener("order", (event) => {
      const order = pageOrderFromJson(JSON.parse((event as MessageEvent<string>).data) as OrderJson);
      setOrders((current) => (current.some((o) => o.id === order.id) ? current : [order, ...current].sort(newestFirst)));
    });
    // A refund: the order is replaced where it stands (one this page has not shown is left for its page).
    source.addEventListener("order-updated", (event) => {
      const order = pageOrderFromJson(JSON.parse((event as MessageEvent<string>).data) as OrderJson);
      setOrders((current) => current.map((o) => (o.id === order.id ? order : o)));
    });
    return () => source.close();
  }, [since]);

  async function showMore() {
    if (!next) return;
    setLoading(true);
    setFailed(false);
    try {
      const response = await fetch(`/api/orders?limit=${PAGE}&before=${encodeURIComponent(next)}`);
      if (!response.ok) throw new Error(String(response.status));
      const page = (await response.json()) as { orders: OrderJson[]; next: string | null };
      const more = page.orders.map(pageOrderFromJson);
      setOrders((current) => [...current, ...more.filter((o) => !current.some((c) => c.id === o.id))]);
      setNext(page.next);
    } catch {
      setFailed(true);
    } finally {
      setLoading(false);
    }
  }

  if (orders.length === 0)
    return (
      <div className="orders__none">
        <p>You don&apos;t have orders yet.</p>
        <p>
          <Link to="/">Continue shopping</Link>
        </p>
      </div>
    );
  return (
    <>
      <ol className="orders__list">
        {orders.map((order) => (
          <li key={order.id}>
            <OrderCard order={order} />
          </li>
        ))}
      </ol>
      {next && (
        <button type="button" className="button-secondary orders__more" onClick={showMore} disabled={loading}>
          {loading ? "Loading…" : "Show more orders"}
        </button>
      )}
      {failed && (
        <p className="error-text" role="alert">
          Your earlier orders could not be loaded. Please try again.
        </p>
      )}
    </>
  );
}
