import { describe, expect, it } from "vitest";
import { overUnitLimit } from "./unit-limit.ts";

describe("the units of one product a checkout may ask for", () => {
  const lamp = (quantity: number) => ({ id: 7, title: "Desk lamp", quantity });

  it("takes up to the limit of each product, and refuses one past it by its title", () => {
    expect(overUnitLimit([lamp(10), { id: 8, title: "Mug", quantity: 10 }], 10)).toBeNull();
    expect(overUnitLimit([{ id: 8, title: "Mug", quantity: 1 }, lamp(11)], 10)).toEqual({ ok: false, status: 409, message: "You can buy at most 10 of Desk lamp.", code: "limit_exceeded" });
  });

  it("counts lines of the same product together", () => {
    expect(overUnitLimit([lamp(6), lamp(6)], 10)).toMatchObject({ message: "You can buy at most 10 of Desk lamp." });
    expect(overUnitLimit([lamp(5), lamp(5)], 10)).toBeNull();
  });
});
