import type { ReactNode } from "react";
import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/order";
import { formatCents } from "../../../lib/basket.ts";
import { requireAdmin } from "../../admin/guard.ts";
import { STATUS_LABELS } from "../../admin/labels.ts";
import { readRefundForm } from "../../admin/refund-form.ts";
import { AdminTable, When } from "../../admin/ui.tsx";
import { pageMeta } from "../../meta.ts";

export const handle = { shell: false };

export const meta: Route.MetaFunction = ({ params }) => pageMeta(`Order ${params.orderId}`, "One order: lines, customer, payment, refunds.");

export async function loader({ context, params }: Route.LoaderArgs) {
  const admin = requireAdmin(context);
  const detail = await admin.orders.detail(params.orderId);
  if (!detail) throw data(null, { status: 404 });
  // One key per refund this page means: a double submit sends the same one (one refund); the next render, a new one.
  return { ...detail, idempotencyKey: crypto.randomUUID() };
}

export async function action({ context, params, request }: Route.ActionArgs) {
  const admin = requireAdmin(context);
  const form = readRefundForm(await request.formData());
  if (!form.ok) return data({ error: form.error, message: null }, { status: 400 });
  const result = await admin.orders.refund(admin.actor, params.orderId, form.key, form.request);
  if (!result.ok) return data({ error: result.message, message: null }, { status: result.status });
  const { amountCents, status } = result.value.refund;
  return {
    error: null,
    message: `Refund of ${formatCents(amountCents)} ${status === "succeeded" ? "done" : status}.`,
  };
}

const LINE_COLUMNS = ["Product", "Price", "Bought", "Refunded"];

export default function AdminOrderPage({ loaderData, actionData }: Route.ComponentProps) {
  const { order, refunds, timeline, idempotencyKey } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const left = order.amountCents - order.refundedCents;
  const payment = order.payment
    ? `${order.payment.gateway === "stripe" ? "Stripe" : "Test gateway"}${order.payment.brand ? `, ${order.payment.brand} ending in ${order.payment.last4}` : ""}`
    : "Unknown";
  const facts: Array<[string, ReactNode]> = [
    ["Status", STATUS_LABELS[order.status]],
    ["Placed", <When key="placed" at={order.created} />],
    ["Customer", order.customer.email],
    ["Payment", payment],
    ["Total", formatCents(order.amountCents)],
    ["Refunded", formatCents(order.refundedCents)],
  ];
  return (
    <section aria-labelledby="order-heading" className="admin-order">
      <p className="admin__back">
        <Link to="/admin/orders">All orders</Link>
      </p>
      <h1 id="order-heading">
        Order <span className="admin__target">{order.id}</span>
      </h1>
      <dl className="admin-facts">
        {facts.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>

      <h2 id="lines-heading">Lines</h2>
      <Form method="post" className="admin-refund">
        <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
        <AdminTable labelledBy="lines-heading" columns={left > 0 ? [...LINE_COLUMNS, "Units to refund"] : LINE_COLUMNS}>
          {order.basket.map((line) => {
            const refunded = order.linesRefunded[line.id] ?? 0;
            return (
              <tr key={line.id}>
                <td>{line.title}</td>
                <td>{formatCents(line.priceCents)}</td>
                <td>{line.quantity}</td>
                <td>{refunded}</td>
                {left > 0 && (
                  <td>
                    <input
                      type="number"
                      name={`units-${line.id}`}
                      min={0}
                      max={line.quantity - refunded}
                      defaultValue={0}
                      disabled={refunded >= line.quantity}
                      aria-label={`Units to refund of ${line.title}`}
                      className="admin-refund__units"
                    />
                  </td>
                )}
              </tr>
            );
          })}
        </AdminTable>
        {left > 0 ? (
          <fieldset className="admin-refund__fields">
            <legend>Refund ({formatCents(left)} left)</legend>
            <label htmlFor="refund-reason">Reason</label>
            <input id="refund-reason" name="reason" required maxLength={500} autoComplete="off" />
            <label className="admin-refund__check">
              <input type="checkbox" name="restock" /> Put the units back in stock
            </label>
            <div className="admin-refund__buttons">
              <button type="submit" name="intent" value="lines" className="button-primary" disabled={busy}>
                Refund selected units
              </button>
              <button type="submit" name="intent" value="all" className="button-secondary" disabled={busy}>
                Refund everything left
              </button>
            </div>
          </fieldset>
        ) : (
          <p className="admin__empty">This order has been refunded in full.</p>
        )}
        {actionData?.error && (
          <p className="error-text" role="alert">
            {actionData.error}
          </p>
        )}
        {/* Once the order shows the refund (the action answers while the page's data is still reloading). */}
        {actionData?.message && navigation.state === "idle" && <p role="status">{actionData.message}</p>}
      </Form>

      <h2 id="refunds-heading">Refunds</h2>
      {refunds.length === 0 ? (
        <p className="admin__empty">None.</p>
      ) : (
        <AdminTable labelledBy="refunds-heading" columns={["When", "Amount", "Units", "Reason", "Status", "By"]}>
          {refunds.map((refund) => (
            <tr key={refund.id}>
              <td>
                <When at={refund.created} />
              </td>
              <td>{formatCents(refund.amountCents)}</td>
              <td>{refund.lines.map((line) => `${line.quantity} × ${order.basket.find((b) => b.id === line.id)?.title ?? line.id}`).join("; ")}</td>
              <td>
                {refund.reason}
                {refund.restock ? " (restocked)" : ""}
              </td>
              <td>{refund.status}</td>
              <td className="admin-email">{refund.actor}</td>
            </tr>
          ))}
        </AdminTable>
      )}

      <h2>Timeline</h2>
      <ol className="admin-timeline">
        {timeline.map((entry, i) => (
          <li key={i}>
            <When at={entry.at} />: {entry.text}
          </li>
        ))}
      </ol>
    </section>
  );
}
