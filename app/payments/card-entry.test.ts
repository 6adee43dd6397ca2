import { describe, expect, it } from "vitest";
import { errorMessage, TRY_AGAIN } from "./card-entry.ts";

describe("the message /payment shows for a refused checkout", () => {
  it("is the message of a stock or unit-limit refusal, as the server words it", () => {
    const limit = { error: { message: "You can buy at most 10 of Desk lamp.", code: "limit_exceeded" } };
    expect(errorMessage(limit, TRY_AGAIN)).toBe("You can buy at most 10 of Desk lamp.");
    expect(errorMessage({ error: { message: "Desk lamp is out of stock.", code: "insufficient_stock" } }, TRY_AGAIN)).toBe("Desk lamp is out of stock.");
    expect(errorMessage({ error: "The basket is empty." }, TRY_AGAIN)).toBe("The basket is empty.");
    expect(errorMessage(null, TRY_AGAIN)).toBe(TRY_AGAIN);
  });
});
