import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { heardFacts, heardRow } from "../../test/support/heard.ts";
import { jsonPost, signUp, TEST_ORIGIN, testApp } from "../../test/support/app.ts";
import { backOfficeShop, signUpAdmin } from "../../test/support/admin.ts";
import { checkout, type Send } from "../../test/support/checkout.ts";
import { cleanupAfterEach, testEngines } from "../../test/support/database.ts";
import { builtPages } from "../../test/support/pages.ts";
import type { DatabaseCatalogue } from "../catalogue/database.ts";
import products from "../../catalogue/products.json" with { type: "json" };
import type { Services } from "../services.ts";
import { type AdminProductJson, TITLE_CONTROL } from "./products.ts";

// /api/admin/products: list, search, filter, sort; create and edit with the version they started
// from (409 for a stale one); archive (gone from the shop, kept on its orders); pictures.
const STALE = { error: "This product was changed by someone else. Reload to see the changes." };
const RING = 8; // jewelery, $649.00, 3 units
const COUNT = products.length;
/** The audit log's entries of one action on the ring. */
const auditCount = async (services: Services, action: string) =>
  Number((await services.database.db.selectFrom("audit_log").select((eb) => eb.fn.countAll<number>().as("n")).where("action", "=", action).where("target", "=", `product:${RING}`).executeTakeFirstOrThrow()).n);

describe.each(testEngines())("admin products on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  async function setup() {
    const { database, app, services, cookie: admin } = await backOfficeShop(engine, cleanup);
    const as = (cookie: string) => ({
      get: (path: string) => app.request(`${TEST_ORIGIN}${path}`, { headers: { cookie } }),
      send: (method: string, path: string, body?: unknown) =>
        app.request(`${TEST_ORIGIN}${path}`, { ...jsonPost(body ?? {}), method, headers: { ...jsonPost(body ?? {}).headers, cookie } }),
    });
    const catalogue = services.catalogue as DatabaseCatalogue;
    /** After a write: this instance's copy has heard it. */
    const settled = async (id: number, done: (p: Awaited<ReturnType<DatabaseCatalogue["byId"]>>) => boolean) => {
      expect(done(await catalogue.byId(id))).toBe(true);
      await heardRow(catalogue, database, id);
    };
    return { app, services, api: as(admin), admin, settled };
  }

  it("answers 404 to anonymous visitors and customers", async () => {
    const { app } = await setup();
    const customer = await signUp(app, "ada@example.com");
    for (const headers of [{}, { cookie: customer }] as Array<Record<string, string>>) {
      expect((await app.request("/api/admin/products", { headers })).status).toBe(404);
      expect((await app.request("/api/admin/products/1", { ...jsonPost({ version: 1 }), method: "PUT", headers: { ...jsonPost({}).headers, ...headers } })).status).toBe(404);
      expect((await app.request(`${TEST_ORIGIN}/admin/products`, { headers })).status).toBe(404);
    }
  });

  it("lists every product a page at a time, searched by title, filtered by category, sorted by stock", async () => {
    const { api } = await setup();
    const first = (await (await api.get("/api/admin/products?limit=5")).json()) as { products: AdminProductJson[]; total: number; pages: number; next: number | null; editable: boolean };
    expect(first).toMatchObject({ total: COUNT, pages: Math.ceil(COUNT / 5), next: 2, editable: true });
    expect(first.products.map((p) => p.id)).toEqual([1, 2, 3, 4, 5]);
    expect(first.products[0]).toMatchObject({ id: 1, title: products[0]!.title, price: products[0]!.price, category: products[0]!.category, stock: products[0]!.stock, version: 1, archived: false, reserved: 0 });
    const last = (await (await api.get(`/api/admin/products?limit=5&page=${Math.ceil(COUNT / 5)}`)).json()) as { products: AdminProductJson[]; next: number | null };
    expect(last.next).toBeNull();
    const search = (await (await api.get("/api/admin/products?q=RING")).json()) as { products: AdminProductJson[] };
    expect(search.products.length).toBeGreaterThan(0);
    expect(search.products.every((p) => p.title.toLowerCase().includes("ring"))).toBe(true);
    // A page past the end is the last one, with or without a search.
    for (const query of ["q=ring&limit=1&page=99", "limit=5&page=99"]) {
      const beyond = (await (await api.get(`/api/admin/products?${query}`)).json()) as { products: AdminProductJson[]; page: number; pages: number; total: number };
      expect(beyond.page).toBe(beyond.pages);
      expect(beyond.products.length).toBe(beyond.total - (beyond.pages - 1) * (query.startsWith("q") ? 1 : 5));
    }
    // LIKE's wildcards are plain characters in a search.
    expect(((await (await api.get("/api/admin/products?q=%25")).json()) as { total: number }).total).toBe(0);
    const jewels = (await (await api.get("/api/admin/products?category=jewelery&sort=stock")).json()) as { products: AdminProductJson[] };
    expect(jewels.products.every((p) => p.category === "jewelery")).toBe(true);
    const stocks = jewels.products.map((p) => p.stock!);
    expect(stocks).toEqual([...stocks].sort((a, b) => a - b));
    const most = (await (await api.get("/api/admin/products?sort=-stock&limit=1")).json()) as { products: AdminProductJson[] };
    expect(most.products[0]!.stock).toBe(Math.max(...first.products.map((p) => p.stock!), most.products[0]!.stock!));
    expect((await api.get("/api/admin/products?sort=price")).status).toBe(400);
    expect((await api.get("/api/admin/products?limit=0")).status).toBe(400);
  });

  it("creates a product that the shop, its search and its API show, with an audit entry", async () => {
    const { app, api, settled } = await setup();
    const created = await api.send("POST", "/api/admin/products", { title: "Walnut desk lamp", price: 34.5, description: "Warm light.", category: "electronics", stock: 7 });
    expect(created.status).toBe(201);
    const lamp = (await created.json()) as AdminProductJson;
    expect(lamp).toMatchObject({ id: COUNT + 1, title: "Walnut desk lamp", price: 34.5, stock: 7, version: 1, archived: false, image: "/images/products/uploads/placeholder.svg" });
    await settled(lamp.id, (p) => p !== null);
    expect(((await (await app.request(`${TEST_ORIGIN}/api/catalogue/products/${lamp.id}`)).json()) as { price: number }).price).toBe(34.5);
    expect(((await (await app.request(`${TEST_ORIGIN}/api/search?q=walnut`)).json()) as { results: Array<{ id: number }> }).results.map((h) => h.id)).toEqual([lamp.id]);
    expect(await (await app.request(`${TEST_ORIGIN}/products/${lamp.id}`)).text()).toContain("Walnut desk lamp");
    expect((await app.request(`${TEST_ORIGIN}/images/products/uploads/placeholder.svg`)).headers.get("content-type")).toBe("image/svg+xml");
    const audit = (await (await api.get("/api/admin/audit")).json()) as { entries: Array<{ action: string; target: string; actor: string; after: unknown }> };
    expect(audit.entries[0]).toMatchObject({ action: "product.create", target: `product:${lamp.id}`, actor: "boss@example.com", after: { title: "Walnut desk lamp", priceCents: 3450, stock: 7 } });
    for (const bad of [{ title: "", price: 1, description: "", category: "electronics", stock: 1 }, { title: "x", price: 1.234, description: "", category: "electronics", stock: 1 }, { title: "x", price: 1, description: "", category: "toys", stock: 1 }, { title: "x", price: 1, description: "", category: "electronics", stock: -1 }]) {
      expect((await api.send("POST", "/api/admin/products", bad)).status).toBe(400);
    }
  });

  it("edits with the version the edit started from; an edit of an old version answers 409 and changes nothing", async () => {
    const { app, api, settled } = await setup();
    const ring = (await (await api.get(`/api/admin/products/${RING}`)).json()) as AdminProductJson;
    const fields = { title: ring.title, price: 12.5, description: ring.description, category: ring.category, stock: 10 };
    const first = await api.send("PUT", `/api/admin/products/${RING}`, { ...fields, version: ring.version });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ price: 12.5, stock: 10, version: ring.version + 1 });
    // A second admin's form, opened before the first edit, names the old version.
    const stale = await api.send("PUT", `/api/admin/products/${RING}`, { ...fields, price: 99, version: ring.version });
    expect(stale.status).toBe(409);
    expect(await stale.json()).toEqual(STALE);
    await settled(RING, (p) => p?.priceCents === 1250);
    expect(((await (await app.request(`${TEST_ORIGIN}/api/catalogue/products/${RING}`)).json()) as { price: number }).price).toBe(12.5);
    expect(await (await app.request(`${TEST_ORIGIN}/products/${RING}`)).text()).toContain("$12.50");
    const audit = (await (await api.get("/api/admin/audit")).json()) as { entries: Array<{ action: string; before: unknown; after: unknown }> };
    expect(audit.entries.filter((e) => e.action === "product.update")).toEqual([
      expect.objectContaining({ before: expect.objectContaining({ priceCents: 64900, stock: 3 }), after: expect.objectContaining({ priceCents: 1250, stock: 10 }) }),
    ]);
    expect((await api.send("PUT", "/api/admin/products/999", { ...fields, version: 1 })).status).toBe(404);
    expect((await api.send("PUT", `/api/admin/products/${RING}`, fields)).status).toBe(400);
  });

  it("moves the stock by what the admin changed, so units sold while the form was open are not put back", async () => {
    const { api, services } = await setup();
    const ring = (await (await api.get(`/api/admin/products/${RING}`)).json()) as AdminProductJson;
    const form = { title: ring.title, price: ring.price, description: ring.description, category: ring.category, stock: ring.stock!, stockWas: ring.stock!, version: ring.version };
    // A sale while the form is open (sales do not move the version).
    await services.database.db.updateTable("products").set({ stock: ring.stock! - 1 }).where("id", "=", RING).execute();
    const priceOnly = await api.send("PUT", `/api/admin/products/${RING}`, { ...form, price: 700 });
    expect(priceOnly.status).toBe(200);
    expect(await priceOnly.json()).toMatchObject({ price: 700, stock: ring.stock! - 1 });
    const restocked = await api.send("PUT", `/api/admin/products/${RING}`, { ...form, price: 700, stock: ring.stock! + 5, version: ring.version + 1 });
    expect(await restocked.json()).toMatchObject({ stock: ring.stock! + 4 });
    // Without stockWas (an API client that means it), the stock is set as given.
    const set = await api.send("PUT", `/api/admin/products/${RING}`, { title: ring.title, price: 700, description: ring.description, category: ring.category, stock: 2, version: ring.version + 2 });
    expect(await set.json()).toMatchObject({ stock: 2 });
  });

  it("lets exactly one of several edits started from the same version through, on every instance", async () => {
    const { api, services } = await setup();
    // On PostgreSQL a second instance on the same database hears the winner too.
    const other = engine === "postgres" ? await testApp({ database: services.database, catalogue: "database" }) : null;
    if (other) {
      cleanup(() => other.services.catalogueEvents.close());
      await other.services.catalogueEvents.listening();
    }
    const ring = (await (await api.get(`/api/admin/products/${RING}`)).json()) as AdminProductJson;
    const edits = Array.from({ length: 6 }, (_, i) => ({ title: ring.title, price: 100 + i, description: ring.description, category: ring.category, stock: 5, version: ring.version }));
    const statuses = await Promise.all(edits.map(async (edit) => (await api.send("PUT", `/api/admin/products/${RING}`, edit)).status));
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(5);
    const winner = (await (await api.get(`/api/admin/products/${RING}`)).json()) as AdminProductJson;
    expect(winner.version).toBe(ring.version + 1);
    for (const catalogue of [services.catalogue, other?.services.catalogue].filter((c) => c !== undefined)) {
      await heardFacts(catalogue as DatabaseCatalogue, RING, (listed) => listed?.priceCents === Math.round(winner.price * 100));
    }
  });

  it("the edit page's forms work before any script: a save, a stale save (409 and its message), an archive", async () => {
    const { app, admin, services } = await setup();
    const post = (fields: Record<string, string>) =>
      app.request(`${TEST_ORIGIN}/admin/products/${RING}`, {
        method: "POST",
        headers: { cookie: admin, origin: TEST_ORIGIN, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields).toString(),
      });
    const page = await app.request(`${TEST_ORIGIN}/admin/products/${RING}`, { headers: { cookie: admin } });
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    // The form carries the stock it showed: a save moves the stock by the admin's change only.
    expect(await page.text()).toMatch(/name="stockWas" value="3"/);
    await services.database.db.updateTable("products").set({ stock: 2 }).where("id", "=", RING).execute(); // a sale meanwhile
    const fields = { title: "Solitaire Ring", price: "600.00", category: "jewelery", stock: "4", description: "Lab-grown." };
    const saved = await post({ ...fields, stockWas: "3", intent: "save", version: "1" });
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain("Saved.");
    expect((await services.database.db.selectFrom("products").select("stock").where("id", "=", RING).executeTakeFirstOrThrow()).stock).toBe(3);
    const stale = await post({ ...fields, price: "1.00", intent: "save", version: "1" });
    expect(stale.status).toBe(409);
    const html = await stale.text();
    expect(html).toContain("This product was changed by someone else. Reload to see the changes.");
    // The refused form still shows what was sent, and the version it started from.
    expect(html).toContain('value="1.00"');
    expect(html).toMatch(/name="version" value="1"/);
    const invalid = await post({ ...fields, price: "12.345", intent: "save", version: "2" });
    expect(invalid.status).toBe(400);
    expect(await invalid.text()).toContain("The price can have at most two decimals.");
    expect((await post({ intent: "archive", version: "2" })).status).toBe(200);
    const created = await app.request(`${TEST_ORIGIN}/admin/products/new`, {
      method: "POST",
      headers: { cookie: admin, origin: TEST_ORIGIN, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ...fields, title: "Pearl studs" }).toString(),
    });
    expect(created.status).toBe(302);
    expect(created.headers.get("location")).toBe(`/admin/products/${COUNT + 1}`);
  });

  it("refuses a title with a line break, tab or other control character, at the API and on the pages, creating and changing nothing", async () => {
    const { app, api, admin, services } = await setup();
    const ring = (await (await api.get(`/api/admin/products/${RING}`)).json()) as AdminProductJson;
    const fields = { price: 10, description: "", category: "jewelery", stock: 1 };
    for (const title of ["Ring\r\nX-Forged: 1", "Ring\n", "\tRing", "Ri\u0000ng", "Ring\u007f", "Ring\u0085", "Ring\u009b"]) {
      const created = await api.send("POST", "/api/admin/products", { ...fields, title });
      expect(created.status).toBe(400);
      expect(await created.json()).toEqual({ error: TITLE_CONTROL });
      const edited = await api.send("PUT", `/api/admin/products/${RING}`, { ...fields, title, version: ring.version });
      expect(edited.status).toBe(400);
      expect(await edited.json()).toEqual({ error: TITLE_CONTROL });
    }
    // The pages' forms show the same message.
    const form = { title: "Ring\r\nX-Forged: 1", price: "10.00", category: "jewelery", stock: "1", description: "" };
    const postForm = (path: string, body: Record<string, string>) =>
      app.request(`${TEST_ORIGIN}${path}`, { method: "POST", headers: { cookie: admin, origin: TEST_ORIGIN, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(body).toString() });
    for (const [path, body] of [
      ["/admin/products/new", form],
      [`/admin/products/${RING}`, { ...form, intent: "save", version: String(ring.version) }],
    ] as const) {
      const page = await postForm(path, body);
      expect(page.status).toBe(400);
      expect(await page.text()).toContain(TITLE_CONTROL);
    }
    expect(((await (await api.get(`/api/admin/products/${RING}`)).json()) as AdminProductJson).title).toBe(ring.title);
    expect(((await (await api.get("/api/admin/products")).json()) as { total: number }).total).toBe(COUNT);
    expect(await auditCount(services, "product.create")).toBe(0);
  });

  it("writes an audit entry and a new version only for a real change: archiving twice, or saving what is there, adds none", async () => {
    const { app, api, admin, services } = await setup();
    const ring = (await (await api.get(`/api/admin/products/${RING}`)).json()) as AdminProductJson;
    const archived = await api.send("POST", `/api/admin/products/${RING}/archive`, { version: ring.version });
    expect(await archived.json()).toMatchObject({ archived: true, version: ring.version + 1 });
    // Again, through the API and through the page: the product is as it was, with no new version.
    const again = await api.send("POST", `/api/admin/products/${RING}/archive`, { version: ring.version + 1 });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ archived: true, version: ring.version + 1 });
    const page = await app.request(`${TEST_ORIGIN}/admin/products/${RING}`, {
      method: "POST",
      headers: { cookie: admin, origin: TEST_ORIGIN, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "archive", version: String(ring.version + 1) }).toString(),
    });
    expect(page.status).toBe(200);
    expect(await auditCount(services, "product.archive")).toBe(1);
    // A save of the fields as they are.
    const same = { title: ring.title, price: ring.price, description: ring.description, category: ring.category, stock: ring.stock!, stockWas: ring.stock! };
    const saved = await api.send("PUT", `/api/admin/products/${RING}`, { ...same, version: ring.version + 1 });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toMatchObject({ version: ring.version + 1, price: ring.price });
    expect(await auditCount(services, "product.update")).toBe(0);
    // A real change still moves the version and is audited.
    expect(await (await api.send("PUT", `/api/admin/products/${RING}`, { ...same, price: 650, version: ring.version + 1 })).json()).toMatchObject({ version: ring.version + 2, price: 650 });
    expect(await auditCount(services, "product.update")).toBe(1);
  });

  it("refuses a version that is not a whole number with 400, changing nothing", async () => {
    const { api, services } = await setup();
    const ring = (await (await api.get(`/api/admin/products/${RING}`)).json()) as AdminProductJson;
    const fields = { title: ring.title, price: 1, description: ring.description, category: ring.category, stock: 1 };
    for (const version of ["abc", 1.5, 0, -1, true]) {
      const archive = await api.send("POST", `/api/admin/products/${RING}/archive`, { version });
      expect(archive.status).toBe(400);
      expect(await archive.json()).toEqual({ error: "version: version must be the product's version (a whole number)." });
      const put = await api.send("PUT", `/api/admin/products/${RING}`, { ...fields, version });
      expect(put.status).toBe(400);
      expect(await put.json()).toEqual({ error: "version must be the product's version (a whole number)." });
    }
    expect(await (await api.get(`/api/admin/products/${RING}`)).json()).toMatchObject({ archived: false, version: ring.version, price: ring.price });
    expect(await auditCount(services, "product.archive")).toBe(0);
  });

  it("archives a product: gone from the shop's pages, its API and its search, still on the orders that bought it", async () => {
    const { app, api, settled } = await setup();
    const cookie = await signUp(app, "ada@example.com");
    const send: Send = (path, init) => app.request(`${TEST_ORIGIN}${path}`, init);
    const bought = await checkout(send, { origin: TEST_ORIGIN, cookie, items: [{ id: RING, amount: 1 }] });
    expect(bought.paid?.status).toBe(200);
    const ring = (await (await api.get(`/api/admin/products/${RING}`)).json()) as AdminProductJson;
    // The shop's pages are cached before, to see that archiving drops them.
    expect(await (await app.request(`${TEST_ORIGIN}/results/jewelery`)).text()).toContain(ring.title);

    const archived = await api.send("POST", `/api/admin/products/${RING}/archive`, { version: ring.version });
    expect(archived.status).toBe(200);
    expect(await archived.json()).toMatchObject({ archived: true, version: ring.version + 1 });
    await settled(RING, (p) => p === null);

    expect((await app.request(`${TEST_ORIGIN}/api/catalogue/products/${RING}`)).status).toBe(404);
    const all = (await (await app.request(`${TEST_ORIGIN}/api/catalogue/products`)).json()) as Array<{ id: number }>;
    expect(all.map((p) => p.id)).not.toContain(RING);
    const hits = (await (await app.request(`${TEST_ORIGIN}/api/search?q=${encodeURIComponent("solitaire ring")}`)).json()) as { results: Array<{ id: number }> };
    expect(hits.results.map((h) => h.id)).not.toContain(RING);
    const page = await app.request(`${TEST_ORIGIN}/products/${RING}`);
    expect(page.status).toBe(404);
    expect(await page.text()).toContain("Product not found.");
    expect(await (await app.request(`${TEST_ORIGIN}/results/jewelery`)).text()).not.toContain(ring.title);
    expect(await (await app.request(`${TEST_ORIGIN}/`)).text()).not.toContain(ring.title);
    // It cannot be bought any more...
    expect((await checkout(send, { origin: TEST_ORIGIN, cookie, items: [{ id: RING, amount: 1 }] })).created.status).toBeGreaterThanOrEqual(400);
    // ...and the order that bought it still shows it, from its own snapshot.
    const orders = (await (await app.request(`${TEST_ORIGIN}/api/orders`, { headers: { cookie } })).json()) as { orders: Array<{ id: string; basket: Array<{ id: number; title: string }> }> };
    expect(orders.orders[0]!.basket).toEqual([expect.objectContaining({ id: RING, title: ring.title })]);
    expect(await (await app.request(`${TEST_ORIGIN}/orders`, { headers: { cookie } })).text()).toContain(ring.title);
    // The back office still lists it, and can put it back.
    const listed = (await (await api.get("/api/admin/products?category=jewelery")).json()) as { products: AdminProductJson[] };
    expect(listed.products.find((p) => p.id === RING)).toMatchObject({ archived: true });
    expect((await api.send("POST", `/api/admin/products/${RING}/unarchive`, { version: ring.version })).status).toBe(409);
    expect((await api.send("POST", `/api/admin/products/${RING}/unarchive`)).status).toBe(200);
    await settled(RING, (p) => p !== null);
    expect((await app.request(`${TEST_ORIGIN}/api/catalogue/products/${RING}`)).status).toBe(200);
  });

  it("takes a PNG, JPEG or WebP picture of up to 5 MB, checked by its content, and serves it from our origin", async () => {
    const { app, api, admin, settled } = await setup();
    const png = await sharp({ create: { width: 600, height: 400, channels: 3, background: "#c0392b" } }).png().withMetadata({ exif: { IFD0: { Copyright: "secret camera" } } }).toBuffer();
    const upload = (body: Uint8Array<ArrayBuffer>, type: string) =>
      app.request(`${TEST_ORIGIN}/api/admin/products/${RING}/image`, { method: "POST", headers: { cookie: admin, origin: TEST_ORIGIN, "content-type": type }, body });
    const saved = await upload(new Uint8Array(png), "image/png");
    expect(saved.status).toBe(200);
    const product = (await saved.json()) as AdminProductJson;
    expect(product.image).toMatch(/^\/images\/products\/uploads\/[0-9a-f]{32}\/480$/);
    await settled(RING, (p) => p?.image === product.image);
    expect((await (await app.request(`${TEST_ORIGIN}/api/catalogue/products/${RING}`)).json()) as { image: string }).toMatchObject({ image: `${TEST_ORIGIN}${product.image}` });
    const served = await app.request(`${TEST_ORIGIN}${product.image}`, { headers: { accept: "image/webp,*/*" } });
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/webp");
    expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const picture = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect(picture).toMatchObject({ format: "webp", width: 480 });
    expect(picture.exif).toBeUndefined();
    expect((await app.request(`${TEST_ORIGIN}${product.image}`)).headers.get("content-type")).toBe("image/jpeg");

    // The same, as a multipart form's `image` file (a browser's form, or curl -F).
    const form = new FormData();
    form.set("image", new Blob([new Uint8Array(await sharp(png).jpeg().toBuffer())]), "ring.jpg");
    const multipart = await app.request(`${TEST_ORIGIN}/api/admin/products/${RING}/image`, { method: "POST", headers: { cookie: admin, origin: TEST_ORIGIN }, body: form });
    expect(multipart.status).toBe(200);
    const again = (await multipart.json()) as AdminProductJson;
    expect(again.image).not.toBe(product.image);
    expect(again.version).toBe(product.version + 1);
    await settled(RING, (p) => p?.image === again.image);
    // A text file called a PNG, and a picture over 5 MB, are refused and change nothing.
    const fake = await upload(new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>"), "image/png");
    expect(fake.status).toBe(415);
    expect(await fake.json()).toEqual({ error: "The image must be a PNG, JPEG or WebP file." });
    const big = await upload(new Uint8Array(5 * 1024 * 1024 + 1), "image/png");
    expect(big.status).toBe(413);
    const huge = await upload(new Uint8Array(6 * 1024 * 1024), "image/png");
    expect(huge.status).toBe(413);
    expect(((await (await api.get(`/api/admin/products/${RING}`)).json()) as AdminProductJson).image).toBe(again.image);
    // Everywhere else the body limit is still 64 KiB.
    expect((await api.send("PUT", `/api/admin/products/${RING}`, { title: "x".repeat(70_000) })).status).toBe(413);
  });
});

describe("admin products with a catalogue the shop does not keep", () => {
  it("lists the products read-only and says why; writes answer 409 with that reason", async () => {
    const { app, services } = await testApp({ env: { CATALOGUE_URL: "https://fakestoreapi.com" } });
    const admin = await signUpAdmin(app, services);
    const reason = "The catalogue comes from fakestoreapi.com: change products there.";
    const list = (await (await app.request("/api/admin/products?q=ring", { headers: { cookie: admin } })).json()) as { products: AdminProductJson[]; editable: boolean; reason: string };
    expect(list).toMatchObject({ editable: false, reason });
    expect(list.products.length).toBeGreaterThan(0);
    const write = await app.request("/api/admin/products/1/archive", { ...jsonPost({}), headers: { ...jsonPost({}).headers, cookie: admin } });
    expect(write.status).toBe(409);
    expect(await write.json()).toEqual({ error: reason });
    // The page lists them too, says why, and offers nothing to change.
    const { app: pages } = await testApp({ env: { CATALOGUE_URL: "https://fakestoreapi.com" }, database: services.database, ssr: await builtPages() });
    const html = await (await pages.request(`${TEST_ORIGIN}/admin/products`, { headers: { cookie: admin } })).text();
    expect(html).toContain(reason);
    expect(html).toContain(list.products[0]!.title.replaceAll("'", "&#x27;"));
    expect(html).not.toContain("Add a product");
  });
});
