import { Form, Link } from "react-router";
import type { Route } from "./+types/orders";
import { formatCents } from "../../../lib/basket.ts";
import { requireAdmin } from "../../admin/guard.ts";
import { isOrderStatus, STATUS_LABELS } from "../../admin/labels.ts";
import { AdminTable, When } from "../../admin/ui.tsx";
import { shortId } from "../../admin/words.ts";
import { pageMeta } from "../../meta.ts";

export const handle = { shell: false };

export const meta: Route.MetaFunction = () => pageMeta("Orders", "Every customer's orders.");

const PAGE = 25;

export async function loader({ context, request }: Route.LoaderArgs) {
  const admin = requireAdmin(context);
  const params = new URL(request.url).searchParams;
  const status = params.get("status");
  const filter = {
    status: isOrderStatus(status) ? status : undefined,
    email: params.get("email")?.trim() || undefined,
  };
  const page = await admin.orders.page({
    ...filter,
    limit: PAGE,
    before: params.get("before") ?? undefined,
  });
  // A cursor that is not one of ours: the first page, rather than an error.
  const shown = page.ok ? page : await admin.orders.page({ ...filter, limit: PAGE });
  return {
    filter,
    orders: shown.ok ? shown.orders : [],
    next: shown.ok ? shown.next : null,
  };
}

export default function AdminOrdersPage({ loaderData: { filter, orders, next } }: Route.ComponentProps) {
  const older = new URLSearchParams({
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.email ? { email: filter.email } : {}),
    before: next ?? "",
  });
  return (
    <section aria-labelledby="orders-heading">
      <h1 id="orders-heading">Orders</h1>
      <Form method="get" className="admin-filter" aria-label="Filter orders">
        <label>
          Status
          <select name="status" defaultValue={filter.status ?? ""}>
            <option value="">All</option>
            {Object.entries(STATUS_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Customer email
          <input type="email" name="email" defaultValue={filter.email ?? ""} autoComplete="off" />
        </label>
        <button type="submit" className="button-secondary">
          Filter
        </button>
      </Form>
      {orders.length === 0 ? (
        <p className="admin__empty">No orders match.</p>
      ) : (
        <AdminTable
          labelledBy="orders-heading"
          columns={["Order", "Placed", "Customer", "Total", "Refunded", "Status"]}
          rows={orders.map((order) => ({
            key: order.id,
            cells: [
              <Link key="id" to={`/admin/orders/${order.id}`} title={order.id}>
                {shortId(order.id)}
              </Link>,
              <When key="placed" at={order.created} />,
              <span key="email" className="admin-email">
                {order.email}
              </span>,
              formatCents(order.amountCents),
              order.refundedCents > 0 ? formatCents(order.refundedCents) : "—",
              STATUS_LABELS[order.status],
            ],
          }))}
        />
      )}
      {next && (
        <p className="admin__pager">
          <Link to={`?${older}`}>Older orders</Link>
        </p>
      )}
    </section>
  );
}
