import type { ReactNode } from "react";
import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/order";
import { formatCents } from "../../../lib/basket.ts";
import { requireAdmin } from "../../admin/guard.ts";
import { STATUS_LABELS } from "../../admin/labels.ts";
import { readRefundForm } from "../../admin/refund-form.ts";
import { AdminTable, When } from "../../admin/ui.tsx";
import { shortId } from "../../admin/words.ts";
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
const REFUND_STATUS_WORDS: Record<string, string> = { succeeded: "Done", pending: "Pending", failed: "Failed" };

type Detail = Route.ComponentProps["loaderData"];

function paymentWords(payment: Detail["order"]["payment"]): string {
  if (!payment) return "Unknown";
  return `${payment.gateway === "stripe" ? "Stripe" : "Test gateway"}${payment.brand ? `, ${payment.brand} ending in ${payment.last4}` : ""}`;
}

/** Who, when, how paid, how much: the order's facts, its whole id among them (to copy). */
function OrderFacts({ order }: { order: Detail["order"] }) {
  const facts: Array<[string, ReactNode]> = [
    ["Order ID", <code key="id" className="admin-id">{order.id}</code>],
    ["Status", STATUS_LABELS[order.status]],
    ["Placed", <When key="placed" at={order.created} />],
    ["Customer", <span key="customer" className="admin-email">{order.customer.email}</span>],
    ["Payment", paymentWords(order.payment)],
    ["Total", formatCents(order.amountCents)],
    ["Refunded", formatCents(order.refundedCents)],
  ];
  return (
    <dl className="admin-facts">
      {facts.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function unitsField(line: Detail["order"]["basket"][number], refunded: number) {
  return (
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
  );
}

/**
 * The lines and the refund form. Keyed by the page's idempotency key, which the reload after a
 * refund replaces: the form starts empty again, so one more click cannot refund twice.
 */
function RefundForm({ order, idempotencyKey, error }: { order: Detail["order"]; idempotencyKey: string; error: string | null }) {
  const busy = useNavigation().state === "submitting";
  const left = order.amountCents - order.refundedCents;
  const rows = order.basket.map((line) => {
    const refunded = order.linesRefunded[line.id] ?? 0;
    const cells: ReactNode[] = [line.title, formatCents(line.priceCents), line.quantity, refunded];
    return { key: line.id, cells: left > 0 ? [...cells, unitsField(line, refunded)] : cells };
  });
  return (
    <Form method="post" className="admin-refund" key={idempotencyKey}>
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <AdminTable labelledBy="lines-heading" columns={left > 0 ? [...LINE_COLUMNS, "Units to refund"] : LINE_COLUMNS} rows={rows} />
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
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
    </Form>
  );
}

function Refunds({ order, refunds }: Pick<Detail, "order" | "refunds">) {
  const titleOf = (id: number) => order.basket.find((line) => line.id === id)?.title ?? `Product ${id}`;
  return (
    <section aria-labelledby="refunds-heading">
      <h2 id="refunds-heading">Refunds</h2>
      {refunds.length === 0 ? (
        <p className="admin__empty">None.</p>
      ) : (
        <AdminTable
          labelledBy="refunds-heading"
          columns={["When", "Amount", "Units", "Reason", "Status", "By"]}
          rows={refunds.map((refund) => ({
            key: refund.id,
            cells: [
              <When key="when" at={refund.created} />,
              formatCents(refund.amountCents),
              refund.lines.map((line) => `${line.quantity} × ${titleOf(line.id)}`).join("; "),
              `${refund.reason}${refund.restock ? " (restocked)" : ""}`,
              REFUND_STATUS_WORDS[refund.status] ?? refund.status,
              <span key="by" className="admin-email">{refund.actor}</span>,
            ],
          }))}
        />
      )}
    </section>
  );
}

export default function AdminOrderPage({ loaderData, actionData }: Route.ComponentProps) {
  const { order, refunds, timeline, idempotencyKey } = loaderData;
  const navigation = useNavigation();
  // Shown once the order shows the refund (the action answers while the page's data is still reloading).
  const done = actionData?.message && navigation.state === "idle" ? actionData.message : "";
  return (
    <section aria-labelledby="order-heading" className="admin-order">
      <p className="admin__back">
        <Link to="/admin/orders">All orders</Link>
      </p>
      <h1 id="order-heading">
        Order <span title={order.id}>{shortId(order.id)}</span>
      </h1>
      <OrderFacts order={order} />
      <section aria-labelledby="lines-heading">
        <h2 id="lines-heading">Lines</h2>
        <RefundForm order={order} idempotencyKey={idempotencyKey} error={actionData?.error ?? null} />
        <p role="status" className={done ? "admin-notice" : "admin-notice admin-notice--empty"}>
          {done}
        </p>
      </section>
      <Refunds order={order} refunds={refunds} />
      <section aria-labelledby="timeline-heading">
        <h2 id="timeline-heading">Timeline</h2>
        <ol className="admin-timeline">
          {timeline.map((entry, i) => (
            <li key={i}>
              <When at={entry.at} />: {entry.text}
            </li>
          ))}
        </ol>
      </section>
    </section>
  );
}
