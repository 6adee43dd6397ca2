import { describe, expect, it } from "vitest";
import { availabilityText, inStock, lineShortText, shortOf } from "./stock.ts";

describe("stock texts, word for word", () => {
  it("says what the product page shows for each stock", () => {
    expect(availabilityText(100)).toBe("In stock");
    expect(availabilityText(6)).toBe("In stock");
    expect(availabilityText(5)).toBe("Only 5 left in stock.");
    expect(availabilityText(1)).toBe("Only 1 left in stock.");
    expect(availabilityText(0)).toBe("Currently unavailable.");
    expect(availabilityText(null)).toBeNull();
    expect(availabilityText(undefined)).toBeNull();
  });

  it("refuses a line beyond what is left by the product's title", () => {
    expect(shortOf("Tee", 2)).toBe("Only 2 left of Tee.");
    expect(shortOf("Tee", 0)).toBe("Tee is out of stock.");
  });

  it("marks a cart line only when it asks for more than there is", () => {
    expect(lineShortText(3, 2)).toBe("Only 2 left in stock.");
    expect(lineShortText(2, 2)).toBeNull();
    expect(lineShortText(1, 0)).toBe("Currently unavailable.");
    expect(lineShortText(50, null)).toBeNull();
  });

  it("treats untracked stock as unlimited", () => {
    expect(inStock(null)).toBe(true);
    expect(inStock(undefined)).toBe(true);
    expect(inStock(1)).toBe(true);
    expect(inStock(0)).toBe(false);
  });
});
