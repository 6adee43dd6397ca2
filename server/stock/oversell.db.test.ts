import { describe, expect, it } from "vitest";
import { signUp, testApp } from "../../test/support/app.ts";
import { checkout, type Send } from "../../test/support/checkout.ts";
import { cleanupAfterEach, freshDatabase, testEngines } from "../../test/support/database.ts";

// The short version of bench/oversell.ts: a product with 10 units, 100 shoppers paying at once.
const PRODUCT = 13;
const UNITS = 10;
const SHOPPERS = 100;

describe.each(testEngines())("no overselling on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  it(`${SHOPPERS} shoppers for ${UNITS} units: exactly ${UNITS} orders, stock 0, the others refused with 409 before any charge`, async () => {
    const database = await freshDatabase(engine);
    cleanup(database.drop);
    const { app, services } = await testApp({ database, catalogue: "database" });
    cleanup(() => services.catalogueEvents.close());
    await database.db.updateTable("products").set({ stock: UNITS }).where("id", "=", PRODUCT).execute();
    // Ten sign-ups at a time: password hashing runs on libuv's threads, not this one.
    const cookies: string[] = [];
    for (let i = 0; i < SHOPPERS; i += 10) {
      cookies.push(...(await Promise.all(Array.from({ length: 10 }, (_, j) => signUp(app, `shopper${i + j}@example.com`)))));
    }
    const send: Send = (path, init) => app.request(path, init);

    const results = await Promise.all(cookies.map((cookie) => checkout(send, { origin: "http://localhost:3000", cookie, items: [{ id: PRODUCT, amount: 1 }] })));

    const paid = results.filter((r) => r.paid?.status === 200);
    const refused = results.filter((r) => r.created.status === 409);
    expect(paid).toHaveLength(UNITS);
    expect(refused).toHaveLength(SHOPPERS - UNITS);
    for (const r of refused) expect(((await r.created.json()) as { error: { code: string } }).error.code).toBe("insufficient_stock");
    expect(results.filter((r) => r.created.status >= 500 || (r.paid?.status ?? 0) >= 500)).toHaveLength(0);
    // Refused before any charge: only the winners ever had a payment intent.
    const payments = await database.db.selectFrom("payments").select("status").execute();
    expect(payments.map((p) => p.status)).toEqual(Array(UNITS).fill("succeeded"));
    expect(await database.db.selectFrom("orders").select("id").execute()).toHaveLength(UNITS);
    expect(await database.db.selectFrom("products").select(["stock", "reserved"]).where("id", "=", PRODUCT).executeTakeFirstOrThrow()).toEqual({ stock: 0, reserved: 0 });
  }, 120_000);
});
