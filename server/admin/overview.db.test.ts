import { describe, expect, it } from "vitest";
import { TEST_ORIGIN } from "../../test/support/app.ts";
import { checkout, priceCents } from "../../test/support/checkout.ts";
import { cleanupAfterEach, testEngines } from "../../test/support/database.ts";
import { refundShop } from "../../test/support/refunds.ts";
import { adminOverview, productTitles, startOfDay } from "./overview.ts";

// The back office's overview: today's and the last 7 days' figures in the shop's time zone, low
// stock, mail waiting or failed; and the product titles the audit log names.

describe("startOfDay", () => {
  it("is the midnight that starts the day in the shop's time zone", () => {
    const at = Date.UTC(2026, 10, 24, 1, 30); // 01:30 UTC: still the 23rd in New York
    expect(startOfDay(at, "UTC")).toBe(Date.UTC(2026, 10, 24));
    expect(startOfDay(at, "America/New_York")).toBe(Date.UTC(2026, 10, 23, 5));
    expect(startOfDay(at, "Asia/Kolkata")).toBe(Date.UTC(2026, 10, 23, 18, 30));
  });

  it("counts a day that summer time shortens from its real midnight", () => {
    // Berlin moves its clocks forward at 02:00 on 29 March 2026: midnight is still at +01:00.
    expect(startOfDay(Date.UTC(2026, 2, 29, 20), "Europe/Berlin")).toBe(Date.UTC(2026, 2, 28, 23));
    expect(startOfDay(Date.UTC(2026, 2, 30, 8), "Europe/Berlin")).toBe(Date.UTC(2026, 2, 29, 22));
  });
});

describe.each(testEngines())("the back office's overview on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  it("counts today's and the week's orders, sales and refunds, low stock and mail", async () => {
    const { app, database, ada } = await refundShop(engine, cleanup);
    const { orderId: old } = await checkout(app.request, { origin: TEST_ORIGIN, cookie: ada, items: [{ id: 9, amount: 1 }] });
    const { orderId } = await checkout(app.request, { origin: TEST_ORIGIN, cookie: ada, items: [{ id: 2, amount: 2 }] });
    // An order from ten days ago counts in neither period; a refund that failed is no refund.
    await database.db.updateTable("orders").set({ created: Date.now() - 10 * 86_400_000 }).where("id", "=", old!).execute();
    const refund = (id: string, status: "succeeded" | "failed") => ({
      id,
      idempotency_key: id,
      fingerprint: id,
      order_id: orderId!,
      amount: priceCents(2),
      lines: JSON.stringify([{ id: 2, amount: 1 }]),
      reason: "Broken",
      restock: 0,
      status,
      gateway_id: null,
      actor: "admin@example.com",
      created: Date.now(),
      settled: null,
    });
    await database.db.insertInto("refunds").values([refund("r1", "succeeded"), refund("r2", "failed")]).execute();
    await database.db.updateTable("products").set({ stock: 0 }).where("id", "=", 1).execute();
    await database.db.updateTable("products").set({ stock: 3 }).where("id", "=", 3).execute();
    await database.db.updateTable("products").set({ stock: 2, archived_at: Date.now() }).where("id", "=", 4).execute();

    const overview = await adminOverview(database.db, { timeZone: "UTC", lowStockThreshold: 5 });
    const expected = { orders: 1, salesCents: priceCents(2) * 2, refunds: 1, refundedCents: priceCents(2) };
    expect(overview.today).toMatchObject(expected);
    expect(overview.lastSevenDays).toMatchObject(expected);
    expect(overview.today.since).toBe(startOfDay(Date.now(), "UTC"));
    const lowInCatalogue = (await database.db.selectFrom("products").select("id").where("stock", "<=", 5).where("archived_at", "is", null).execute()).length;
    expect(overview).toMatchObject({ lowStock: lowInCatalogue, soldOut: 1, lowStockThreshold: 5, timeZone: "UTC" });
    expect(overview.mailPending + overview.mailFailed).toBeGreaterThanOrEqual(0);
    await database.db.updateTable("mail_outbox").set({ status: "failed" }).execute();
    const mailRows = (await database.db.selectFrom("mail_outbox").select("id").execute()).length;
    expect(await adminOverview(database.db, { timeZone: "UTC", lowStockThreshold: 5 })).toMatchObject({ mailFailed: mailRows, mailPending: 0 });
  });

  it("names products by id, archived ones too, and skips ids it does not know", async () => {
    const { database } = await refundShop(engine, cleanup);
    await database.db.updateTable("products").set({ archived_at: Date.now() }).where("id", "=", 4).execute();
    const titles = await productTitles(database.db, [4, 2, 2, 999_999]);
    expect(Object.keys(titles).sort()).toEqual(["2", "4"]);
    expect(titles[2]).toBe((await database.db.selectFrom("products").select("title").where("id", "=", 2).executeTakeFirstOrThrow()).title);
    expect(await productTitles(database.db, [])).toEqual({});
  });
});
