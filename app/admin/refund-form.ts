import { field } from "../auth/form.ts";

/** A refund as the order page's form posts it: the key, which lines' units (none: everything left), why, restock. */
export type RefundForm =
  | { ok: true; key: string; request: { lines?: Array<{ id: number; amount: number }>; reason: string; restock: boolean } }
  | { ok: false; error: string };

/**
 * Reads the order page's refund form. "units-<product id>" fields hold the units to refund of each
 * line; the "everything left" button refunds what remains whatever they say.
 */
export function readRefundForm(form: FormData): RefundForm {
  const key = field(form, "idempotencyKey");
  const reason = field(form, "reason").trim();
  if (!key) return { ok: false, error: "This form has expired. Please reload the page and try again." };
  if (!reason) return { ok: false, error: "Please give a reason for the refund." };
  const restock = form.get("restock") === "on";
  if (field(form, "intent") === "all") return { ok: true, key, request: { reason, restock } };
  const lines: Array<{ id: number; amount: number }> = [];
  for (const [name, value] of form) {
    const id = /^units-(\d+)$/.exec(name)?.[1];
    if (!id || typeof value !== "string" || value.trim() === "" || value.trim() === "0") continue;
    const amount = Number(value);
    if (!Number.isInteger(amount) || amount < 0) return { ok: false, error: "Units to refund must be whole numbers." };
    lines.push({ id: Number(id), amount });
  }
  if (lines.length === 0) return { ok: false, error: "Choose how many units of which lines to refund, or refund everything left." };
  return { ok: true, key, request: { lines, reason, restock } };
}
