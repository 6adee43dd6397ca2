import { describe, expect, it } from "vitest";
import { fieldChanges } from "./changes.ts";

describe("fieldChanges", () => {
  it("lists only the fields an edit changed", () => {
    expect(fieldChanges({ title: "Bag", priceCents: 1000, stock: 3 }, { title: "Bag", priceCents: 1200, stock: 3 })).toEqual([
      { field: "priceCents", before: "1000", after: "1200" },
    ]);
  });

  it("lists every field of a creation, and of a removal", () => {
    expect(fieldChanges(null, { title: "Bag", stock: 2 })).toEqual([
      { field: "title", before: "", after: "Bag" },
      { field: "stock", before: "", after: "2" },
    ]);
    expect(fieldChanges({ role: "admin" }, null)).toEqual([{ field: "role", before: "admin", after: "" }]);
  });

  it("shows a plain value, and nested values as JSON", () => {
    expect(fieldChanges("a", "b")).toEqual([{ field: "value", before: "a", after: "b" }]);
    expect(fieldChanges({ lines: [{ id: 1 }] }, { lines: [{ id: 2 }] })).toEqual([{ field: "lines", before: '[{"id":1}]', after: '[{"id":2}]' }]);
  });
});
