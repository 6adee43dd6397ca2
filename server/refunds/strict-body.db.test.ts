import { describe, expect, it } from "vitest";
import { TEST_ORIGIN } from "../../test/support/app.ts";
import { checkout, priceCents } from "../../test/support/checkout.ts";
import { cleanupAfterEach, testEngines } from "../../test/support/database.ts";
import { postRefund, refundShop } from "../../test/support/refunds.ts";

// A refund body names only the fields it knows and asks for at least one unit of each line it
// names: anything else is a 400 naming what is wrong, and refunds nothing. Left unchecked, an
// unknown field (`amount`) was dropped and the rest read as "refund everything left".

describe.each(testEngines())("the refund API's body on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  async function setup() {
    const { app, database, admin, ada } = await refundShop(engine, cleanup);
    const { paid, orderId } = await checkout(app.request, { origin: TEST_ORIGIN, cookie: ada, items: [{ id: 2, amount: 2 }] });
    expect(paid?.status).toBe(200);
    /** What the order has had back, and the refunds written. */
    const refunded = async () => ({
      order: Number((await database.db.selectFrom("orders").select("refunded").where("id", "=", orderId!).executeTakeFirstOrThrow()).refunded),
      refunds: (await database.db.selectFrom("refunds").select("id").execute()).length,
    });
    return { app, admin, orderId: orderId!, refunded };
  }

  it.each([
    [{ amount: -500, reason: "Broken", restock: false }, "Unknown field: amount."],
    [{ lines: [{ id: 2, amount: 1 }], reason: "Broken", restock: false, amount: 100, note: "x" }, "Unknown fields: amount, note."],
    [{ lines: [{ id: 2, amount: 1, priceCents: 1 }], reason: "Broken", restock: false }, "lines.0: Unknown field: priceCents."],
    [{ lines: [{ id: 2, amount: -1 }], reason: "Broken", restock: false }, "lines.0.amount: amount (units) must be at least 1"],
    [{ lines: [{ id: 2, amount: 0 }], reason: "Broken", restock: false }, "lines.0.amount: amount (units) must be at least 1"],
    [{ lines: [], reason: "Broken", restock: false }, "lines: lines must name at least one line (leave it out to refund everything left)"],
  ])("refuses %j with 400 (%s) and refunds nothing", async (body, message) => {
    const { app, admin, orderId, refunded } = await setup();
    const response = await postRefund(app, admin, orderId, body);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: message });
    expect(await refunded()).toEqual({ order: 0, refunds: 0 });
  });

  it("still refunds the units a well-formed body names", async () => {
    const { app, admin, orderId, refunded } = await setup();
    const response = await postRefund(app, admin, orderId, { lines: [{ id: 2, amount: 1 }], reason: "Broken", restock: false });
    expect(response.status).toBe(200);
    expect(await refunded()).toEqual({ order: priceCents(2), refunds: 1 });
  });
});
