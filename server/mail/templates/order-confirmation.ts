import { lineTotalCents } from "../../../lib/basket.ts";
import { escapeHtml, formatCents, formatDate, htmlButton, htmlDocument, type RenderedMail, type TemplateContext } from "./layout.ts";

/**
 * What the outbox row keeps of an order for its confirmation: the lines as they were priced. Stored
 * JSON in the order's own names: `amount` is the total in cents, a line's `amount` its quantity.
 */
export interface OrderConfirmationPayload {
  orderId: string;
  amount: number;
  /** Epoch ms: the payment intent's time, as the orders page shows it. */
  created: number;
  lines: Array<{ title: string; amount: number; priceCents: number }>;
}

export function orderConfirmation(order: OrderConfirmationPayload, { publicUrl }: TemplateContext): RenderedMail {
  const totalCents = order.amount;
  const lines = order.lines.map(({ title, amount, priceCents }) => ({ title, quantity: amount, priceCents }));
  const subject = `Your Storefront order ${order.orderId}`;
  const ordersUrl = `${publicUrl}/orders`;
  const date = formatDate(order.created);
  const text = [
    "Thank you for your order.",
    "",
    `Order: ${order.orderId}`,
    `Date: ${date}`,
    "",
    ...lines.map((line) => `${line.quantity} x ${line.title}: ${formatCents(lineTotalCents(line))}`),
    "",
    `Total: ${formatCents(totalCents)}`,
    "",
    `See your orders: ${ordersUrl}`,
    "",
  ].join("\n");
  const rows = lines
    .map(
      (line) =>
        `<tr><td style="padding:4px 8px 4px 0">${escapeHtml(line.title)}</td><td style="padding:4px 8px;text-align:right">${line.quantity}</td><td style="padding:4px 0 4px 8px;text-align:right">${formatCents(lineTotalCents(line))}</td></tr>`,
    )
    .join("\n");
  const html = htmlDocument(
    subject,
    `<h1 style="font-size:22px;margin:0 0 8px">Thank you for your order</h1>
<p style="margin:0">Order: <strong>${escapeHtml(order.orderId)}</strong><br>Date: ${escapeHtml(date)}</p>
<table style="width:100%;border-collapse:collapse;margin:12px 0">
<thead><tr><th style="text-align:left;padding:4px 8px 4px 0">Item</th><th style="text-align:right;padding:4px 8px">Quantity</th><th style="text-align:right;padding:4px 0 4px 8px">Price</th></tr></thead>
<tbody>
${rows}
</tbody>
<tfoot><tr><th colspan="2" style="text-align:right;padding:8px 8px 0 0">Total</th><td style="text-align:right;padding:8px 0 0 8px;font-weight:700">${formatCents(totalCents)}</td></tr></tfoot>
</table>
${htmlButton(ordersUrl, "See your orders")}`,
  );
  return { subject, text, html };
}
