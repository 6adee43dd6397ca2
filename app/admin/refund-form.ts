import { field } from "../auth/form.ts";

/** A refund as the order page's form posts it: the key, which lines' units (none: everything left), why, restock. */
export type RefundForm =
  | { ok: true; key: string; request: { lines?: Array<{ id: number; quantity: number }>; reason: string; restock: boolean } }
  | { ok: false; error: string };

/** The fields the order page's form has: anything else is refused by name, as the refund API does. */
const KNOWN = new Set(["idempotencyKey", "reason", "restock", "intent"]);
const UNITS = /^units-(\d{1,9})$/;

/**
 * Reads the order page's refund form. "units-<product id>" fields hold the units to refund of each
 * line; the "everything left" button refunds what remains whatever they say. Strict as the API's
 * body is: an unknown or repeated field, an unknown button, or units that are not a whole number
 * are refused, never read as "refund everything left".
 */
export function readRefundForm(form: FormData): RefundForm {
  const seen = new Set<string>();
  for (const name of form.keys()) {
    if (!KNOWN.has(name) && !UNITS.test(name)) return { ok: false, error: `Unknown field: ${name}.` };
    if (seen.has(name)) return { ok: false, error: `The field ${name} is given more than once.` };
    seen.add(name);
  }
  const key = field(form, "idempotencyKey");
  const reason = field(form, "reason").trim();
  if (!key) return { ok: false, error: "This form has expired. Please reload the page and try again." };
  if (!reason) return { ok: false, error: "Please give a reason for the refund." };
  const restockField = form.get("restock");
  if (restockField !== null && restockField !== "on") return { ok: false, error: "restock must be on or left out." };
  const restock = restockField === "on";
  const intent = form.get("intent") ?? "lines";
  if (intent !== "lines" && intent !== "all") return { ok: false, error: "Choose one of the form's refund buttons." };
  if (intent === "all") return { ok: true, key, request: { reason, restock } };
  const lines: Array<{ id: number; quantity: number }> = [];
  for (const [name, value] of form) {
    const id = UNITS.exec(name)?.[1];
    if (!id) continue;
    const units = typeof value === "string" ? value.trim() : null;
    if (units === "") continue;
    // Digits only: no sign, no exponent, no fraction ("-1", "1e3", "1.5", a file are all refused).
    if (units === null || !/^\d{1,9}$/.test(units)) return { ok: false, error: "Units to refund must be whole numbers." };
    const quantity = Number(units);
    if (quantity > 0) lines.push({ id: Number(id), quantity });
  }
  if (lines.length === 0) return { ok: false, error: "Choose how many units of which lines to refund, or refund everything left." };
  return { ok: true, key, request: { lines, reason, restock } };
}
