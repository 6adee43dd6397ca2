import { escapeHtml, formatCents, htmlButton, htmlDocument, type RenderedMail, type TemplateContext } from "./layout.ts";

/** What the outbox keeps of a refund for its mail. */
export interface RefundPayload {
  orderId: string;
  /** Cents. */
  amount: number;
  /** What the order has had refunded in all, this one included (cents), and what was paid. */
  refundedTotal: number;
  orderAmount: number;
}

/** The refund mail's subject: "Your refund of {amount} for order {id}". */
export function refundMail(refund: RefundPayload, { publicUrl }: TemplateContext): RenderedMail {
  const subject = `Your refund of ${formatCents(refund.amount)} for order ${refund.orderId}`;
  const ordersUrl = `${publicUrl}/orders`;
  const whole = refund.refundedTotal >= refund.orderAmount;
  const summary = whole ? "The order has been refunded in full." : `${formatCents(refund.refundedTotal)} of its ${formatCents(refund.orderAmount)} has been refunded so far.`;
  const text = [
    `${subject}.`,
    "",
    "The money goes back to the card you paid with; your bank may take a few days to show it.",
    summary,
    "",
    `See your orders: ${ordersUrl}`,
    "",
  ].join("\n");
  const html = htmlDocument(
    subject,
    `<h1 style="font-size:22px;margin:0 0 8px">Your refund of ${formatCents(refund.amount)}</h1>
<p style="margin:0">Order: <strong>${escapeHtml(refund.orderId)}</strong></p>
<p>The money goes back to the card you paid with; your bank may take a few days to show it.</p>
<p>${escapeHtml(summary)}</p>
${htmlButton(ordersUrl, "See your orders")}`,
  );
  return { subject, text, html };
}
