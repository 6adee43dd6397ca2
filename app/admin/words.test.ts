import { describe, expect, it } from "vitest";
import { entryWords, MAIL_STATUS_WORDS, productIdsOf, shortId, targetWords } from "./words.ts";

describe("shortId", () => {
  it("keeps the kind and both ends of a long id", () => {
    expect(shortId("pi_1522e2da0998e97c52974751")).toBe("pi_1522…4751");
    expect(shortId("0123456789abcdef")).toBe("0123…cdef");
  });

  it("leaves a short id whole", () => {
    expect(shortId("pi_x")).toBe("pi_x");
    expect(shortId("pi_0123456789")).toBe("pi_0123456789");
  });
});

describe("records in words", () => {
  const titles = { 16: "Leather Moto Jacket", 9: "Sapphire Teardrop Pendant Necklace" };

  it("names statuses as words", () => {
    expect(MAIL_STATUS_WORDS).toEqual({ pending: "Waiting", sent: "Sent", failed: "Failed" });
    const refund = entryWords(
      {
        action: "order.refund",
        before: { status: "paid", refunded: "$0.00" },
        after: { status: "partially_refunded", refunded: "$15.99", refund: "$15.99", lines: "1 × 16, 2 × 9", reason: "Broken", restock: false },
      },
      titles,
    );
    expect(refund.action).toBe("Refund");
    expect(refund.changes).toEqual([
      { field: "Status", before: "Paid", after: "Partly refunded" },
      { field: "Refunded in all", before: "$0.00", after: "$15.99" },
      { field: "Refund", before: "", after: "$15.99" },
      { field: "Units", before: "", after: "1 × Leather Moto Jacket, 2 × Sapphire Teardrop Pendant Necklace" },
      { field: "Reason", before: "", after: "Broken" },
      { field: "Back in stock", before: "", after: "No" },
    ]);
  });

  it("writes prices as money and roles as words", () => {
    expect(entryWords({ action: "product.update", before: { priceCents: 1599, archived: false }, after: { priceCents: 1799, archived: true } }, {}).changes).toEqual([
      { field: "Price", before: "$15.99", after: "$17.99" },
      { field: "Archived", before: "No", after: "Yes" },
    ]);
    expect(entryWords({ action: "staff.grant", before: { role: "customer" }, after: { role: "admin" } }, {})).toEqual({
      action: "Made an admin",
      changes: [{ field: "Role", before: "Customer", after: "Admin" }],
    });
  });

  it("names products by title and links what it can", () => {
    expect(targetWords("product:16", titles)).toEqual({ text: "Leather Moto Jacket", href: "/admin/products/16" });
    expect(targetWords("product:3", titles)).toEqual({ text: "Product 3", href: "/admin/products/3" });
    expect(targetWords("order:pi_1522e2da0998e97c52974751", titles)).toEqual({ text: "Order pi_1522…4751", href: "/admin/orders/pi_1522e2da0998e97c52974751" });
    expect(targetWords("user:ada@example.com", titles)).toEqual({ text: "ada@example.com" });
    expect(productIdsOf({ target: "order:pi_1", after: { lines: "1 × 16, 2 × 9" } })).toEqual([16, 9]);
    expect(productIdsOf({ target: "product:4", after: null })).toEqual([4]);
  });
});
