import { describe, expect, it } from "vitest";
import { TEST_ORIGIN } from "../../test/support/app.ts";
import { backOfficeShop } from "../../test/support/admin.ts";
import { cleanupAfterEach, testEngines } from "../../test/support/database.ts";
import products from "../../catalogue/products.json" with { type: "json" };
import { CATALOGUE_BODY_BYTES } from "../http/body-limit.ts";

// The back office's catalogue files: the API's import (the file as the body, or a form's file) and
// export, and the import page's form, which works before any script.
const HEADER = "id,title,price,description,category,image,rating_rate,rating_count,stock";
const GOOD = `${HEADER}\n1,Waxed Canvas Rucksack,79.00,A rucksack.,men's clothing,1-canvas-backpack.svg,4.3,312,40\n,Linen Apron,24.50,An apron.,kitchen,,,,12\n`;
const BAD = `${HEADER}\n1,Rucksack,-3,A rucksack.,men's clothing,,,,4\n,,12,No title.,kitchen,,,,x\n`;

function form(name: string, text: string, type = "text/csv"): FormData {
  const body = new FormData();
  body.set("file", new File([text], name, { type }));
  return body;
}

describe.each(testEngines())("catalogue files in the back office on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  async function setup() {
    const { app, services, cookie } = await backOfficeShop(engine, cleanup);
    const post = (path: string, body: BodyInit, headers: Record<string, string> = {}) =>
      app.request(`${TEST_ORIGIN}${path}`, { method: "POST", body, headers: { origin: TEST_ORIGIN, cookie, ...headers } });
    const get = (path: string) => app.request(`${TEST_ORIGIN}${path}`, { headers: { cookie } });
    return { app, services, post, get };
  }

  it("imports a CSV body and a form's JSON file through the API, each with one audit entry", async () => {
    const { services, post } = await setup();
    const csv = await post("/api/admin/products/import", GOOD, { "content-type": "text/csv" });
    expect(csv.status).toBe(200);
    expect(await csv.json()).toEqual({ added: 1, updated: 1, unchanged: 0 });
    const json = JSON.stringify([{ id: 2, title: products[1]!.title, price: 9.99, description: "A tee.", category: products[1]!.category, stock: 5 }]);
    const upload = await post("/api/admin/products/import", form("products.json", json, "application/json"));
    expect(await upload.json()).toEqual({ added: 0, updated: 1, unchanged: 0 });
    const rucksack = await services.database.db.selectFrom("products").select(["price_cents", "stock"]).where("id", "=", 1).executeTakeFirstOrThrow();
    expect(rucksack).toEqual({ price_cents: 7900, stock: 40 });
    const audits = await services.database.db.selectFrom("audit_log").select("action").where("action", "=", "products.import").execute();
    expect(audits).toHaveLength(2);
  });

  it("lists every bad row and field with 422 and writes nothing", async () => {
    const { services, post } = await setup();
    const answer = await post("/api/admin/products/import", GOOD + BAD.split("\n").slice(1).join("\n"), { "content-type": "text/csv" });
    expect(answer.status).toBe(422);
    const body = (await answer.json()) as { error: string; problems: Array<{ row: number; field: string }> };
    expect(body.error).toBe("Some rows are not right; nothing was imported.");
    expect(body.problems.map(({ row, field }) => `${row} ${field}`)).toEqual(["3 price", "4 title", "4 stock"]);
    expect((await services.database.db.selectFrom("products").select("price_cents").where("id", "=", 1).executeTakeFirstOrThrow()).price_cents).toBe(Math.round(products[0]!.price * 100));
  });

  it("refuses what is not a catalogue file: another type, a form without a file, a body past the limit", async () => {
    const { post } = await setup();
    expect((await post("/api/admin/products/import", "hello", { "content-type": "text/plain" })).status).toBe(415);
    expect((await post("/api/admin/products/import", form("products.txt", "hello", "text/plain"))).status).toBe(415);
    const empty = new FormData();
    empty.set("note", "no file");
    expect((await post("/api/admin/products/import", empty)).status).toBe(400);
    const huge = await post("/api/admin/products/import", "x", { "content-type": "text/csv", "content-length": String(CATALOGUE_BODY_BYTES + 1) });
    expect(huge.status).toBe(413);
  });

  it("exports every product on sale as a CSV or JSON download that imports back unchanged", async () => {
    const { get, post } = await setup();
    const csv = await get("/api/admin/products/export?format=csv");
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toBe('attachment; filename="products.csv"');
    const text = await csv.text();
    expect(text.split("\n")[0]).toBe(HEADER);
    expect(await (await post("/api/admin/products/import", text, { "content-type": "text/csv" })).json()).toEqual({ added: 0, updated: 0, unchanged: products.length });
    const json = (await (await get("/api/admin/products/export")).json()) as Array<{ id: number }>;
    expect(json.map((p) => p.id)).toEqual(products.map((p) => p.id));
    expect((await get("/api/admin/products/export?format=xml")).status).toBe(400);
  });

  it("the import page takes a file from its form and shows the counts, or every bad row", async () => {
    const { post, get } = await setup();
    const page = await get("/admin/products/import");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Import products");
    const good = await post("/admin/products/import", form("catalogue.csv", GOOD));
    expect(good.status).toBe(200);
    expect(await good.text()).toContain("Imported: added 1, updated 1, unchanged 0.");
    const bad = await post("/admin/products/import", form("catalogue.csv", BAD));
    expect(bad.status).toBe(422);
    const html = await bad.text();
    expect(html).toContain("Nothing was imported: these rows are not right.");
    expect(html).toContain("row 1: price: The price cannot be negative.");
  });
});
