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
      request: { lines: [{ id: 2, amount: 1 }], reason: "Broken", restock: true },
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
});
