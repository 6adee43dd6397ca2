import { Hono } from "hono";
import { z } from "zod";
import { jsonBody } from "../api-edge/json-body.ts";
import { jsonResponse } from "../api-edge/json-response.ts";
import { limitParam, queryParams } from "../api-edge/query.ts";
import { HttpError } from "../http-error.ts";
import type { AdminOrderSummary } from "../orders/admin-store.ts";
import { ORDER_STATUSES, orderJson } from "../orders/order.ts";
import { storedLines } from "../refunds/store.ts";
import type { StaffEnv } from "./gate.ts";
import type { AdminOrderDetail, AdminOrders, RefundView } from "./orders.ts";

const listQuery = z.object({
  status: z.enum(ORDER_STATUSES, { error: `status must be one of ${ORDER_STATUSES.join(", ")}` }).optional(),
  email: z.string().max(320, "email is too long").optional(),
  limit: limitParam(100).default(50),
  before: z.string().max(300).optional(),
});

const wholeAtLeastOne = (what: string) => z.number({ error: `${what} must be a number` }).int(`${what} must be a whole number`).min(1, `${what} must be at least 1`);

/**
 * A refund body names only fields it knows: an unknown one (a misspelt `lines`, an `amount`) is
 * refused by name rather than dropped, which would leave a request meaning "refund everything left".
 */
const knownFieldsOnly = {
  error: (issue: { code?: string; keys?: string[] }) =>
    issue.code === "unrecognized_keys" && issue.keys ? `Unknown field${issue.keys.length > 1 ? "s" : ""}: ${issue.keys.join(", ")}.` : undefined,
};

const refundBody = z.strictObject({
  lines: z
    .array(z.strictObject({ id: wholeAtLeastOne("id"), amount: wholeAtLeastOne("amount (units)").max(999, "amount (units) must be at most 999") }, knownFieldsOnly), {
      error: "lines must be a list of { id, amount }",
    })
    .min(1, "lines must name at least one line (leave it out to refund everything left)")
    .max(100, "at most 100 lines")
    .optional(),
  reason: z.string({ error: "reason is required" }).trim().min(1, "reason is required").max(500, "reason must be at most 500 characters"),
  restock: z.boolean({ error: "restock must be true or false" }),
}, knownFieldsOnly);

/** The API's names: an order's and a refund's `amount` in cents, `refunded` in cents, a line's `amount` in units. */
const summaryJson = ({ amountCents, refundedCents, ...summary }: AdminOrderSummary) => ({ ...summary, amount: amountCents, refunded: refundedCents });

const refundJson = ({ amountCents, lines, ...refund }: RefundView) => ({ ...refund, amount: amountCents, lines: storedLines(lines) });

function detailJson({ order, refunds, timeline }: AdminOrderDetail) {
  const { placed, customer, linesRefunded, payment } = order;
  return { order: { ...orderJson(order), placed, customer, linesRefunded, payment }, refunds: refunds.map(refundJson), timeline };
}

/** The Idempotency-Key header: the back office's button sends one per refund it means, as Stripe's API takes it. */
const KEY = /^[\x21-\x7e]{1,255}$/;

/** /api/admin/orders: every customer's orders, one in detail, and refunds. Behind the admin gate. */
export function adminOrderRoutes(orders: AdminOrders): Hono<StaffEnv> {
  const api = new Hono<StaffEnv>();

  /** { orders, next }: newest first; ?status=, ?email=, ?limit=, ?before= (a previous page's next). */
  api.get("/", async (c) => {
    const page = await orders.page(queryParams(c, listQuery));
    if (!page.ok) throw new HttpError(400, page.message);
    return jsonResponse(c, { orders: page.orders.map(summaryJson), next: page.next });
  });

  /** { order, refunds, timeline }. */
  api.get("/:id", async (c) => {
    const detail = await orders.detail(c.req.param("id"));
    if (!detail) throw new HttpError(404, "No such order.");
    return jsonResponse(c, detailJson(detail));
  });

  /** { refund: { id, amount, status } }: the same answer for the same Idempotency-Key, however often sent. */
  api.post("/:id/refunds", async (c) => {
    const key = c.req.header("idempotency-key");
    if (!key || !KEY.test(key)) throw new HttpError(400, "The Idempotency-Key header is required (up to 255 printable characters): send one per refund you mean.");
    const { lines, ...body } = await jsonBody(c, refundBody);
    const staff = c.get("staff");
    const request = { ...body, lines: lines?.map(({ id, amount }) => ({ id, quantity: amount })) };
    const result = await orders.refund({ id: staff.uid, name: staff.email }, c.req.param("id"), key, request);
    if (!result.ok) throw new HttpError(result.status, result.message);
    const { amountCents, ...refund } = result.value.refund;
    return jsonResponse(c, { refund: { ...refund, amount: amountCents } });
  });

  return api;
}
