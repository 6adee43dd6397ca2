import { describe, expect, it } from "vitest";
import { readRefundForm } from "./refund-form.ts";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
};

describe("the order page's refund form", () => {
  it("reads the lines with units, the reason and restock", () => {
    expect(readRefundForm(form({ idempotencyKey: "k", reason: " Broken ", "units-2": "1", "units-9": "0", restock: "on", intent: "lines" }))).toEqual({
      ok: true,
      key: "k",
      request: { lines: [{ id: 2, quantity: 1 }], reason: "Broken", restock: true },
    });
  });

  it("refunds everything left with the other button, whatever the units say", () => {
    expect(readRefundForm(form({ idempotencyKey: "k", reason: "Cancelled", "units-2": "1", intent: "all" }))).toEqual({ ok: true, key: "k", request: { reason: "Cancelled", restock: false } });
  });

  it("asks for a reason, some units, and whole numbers", () => {
    expect(readRefundForm(form({ idempotencyKey: "k", reason: "", "units-2": "1" }))).toEqual({ ok: false, error: "Please give a reason for the refund." });
    expect(readRefundForm(form({ idempotencyKey: "k", reason: "x", "units-2": "0" }))).toMatchObject({ ok: false, error: expect.stringMatching(/^Choose how many units/) });
    expect(readRefundForm(form({ idempotencyKey: "k", reason: "x", "units-2": "1.5" }))).toEqual({ ok: false, error: "Units to refund must be whole numbers." });
    expect(readRefundForm(form({ reason: "x", "units-2": "1" }))).toMatchObject({ ok: false });
  });

  it("refuses what the form does not have by name, as the refund API does, never refunding everything left", () => {
    const base = { idempotencyKey: "k", reason: "Broken", intent: "lines" };
    expect(readRefundForm(form({ ...base, amount: "-500" }))).toEqual({ ok: false, error: "Unknown field: amount." });
    expect(readRefundForm(form({ ...base, "units-2": "1", "units-x": "1" }))).toEqual({ ok: false, error: "Unknown field: units-x." });
    expect(readRefundForm(form({ ...base, intent: "everything" }))).toEqual({ ok: false, error: "Choose one of the form's refund buttons." });
    expect(readRefundForm(form({ ...base, "units-2": "1", restock: "no" }))).toEqual({ ok: false, error: "restock must be on or left out." });
    const twice = form({ ...base, "units-2": "1" });
    twice.append("units-2", "5");
    expect(readRefundForm(twice)).toEqual({ ok: false, error: "The field units-2 is given more than once." });
  });

  it("takes units as digits only: no sign, exponent or fraction", () => {
    for (const units of ["-1", "-0", "1e3", "0x10", "+1", "1.0"]) {
      expect(readRefundForm(form({ idempotencyKey: "k", reason: "x", "units-2": units, intent: "lines" }))).toEqual({ ok: false, error: "Units to refund must be whole numbers." });
    }
    expect(readRefundForm(form({ idempotencyKey: "k", reason: "x", "units-2": " 2 ", "units-3": "00", intent: "lines" }))).toMatchObject({ ok: true, request: { lines: [{ id: 2, quantity: 2 }] } });
  });
});
