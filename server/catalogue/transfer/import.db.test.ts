import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { cleanupAfterEach, freshDatabase, testEngines } from "../../../test/support/database.ts";
import { memoryLogger } from "../../../test/support/logger.ts";
import type { Actor } from "../../audit/log.ts";
import { type CatalogueChanged, type CatalogueEvents, InProcessCatalogueEvents, PostgresCatalogueEvents } from "../events.ts";
import { updateProductAt } from "../products-table.ts";
import { readSeed, type SeedEntry, seedCatalogue } from "../seed.ts";
import { exportProducts } from "./export.ts";
import { importProducts } from "./import.ts";
import type { Format } from "./parse.ts";

// Loading a catalogue file into the shop's database, and writing one from it, on each engine: the
// service the command line and the back office share.
const SEED = readSeed();
const ACTOR: Actor = { id: null, name: "npm run catalogue" };
const file = (content: string) => Readable.from([Buffer.from(content)]);
const csvFile = (rows: Array<Record<string, unknown>>) => {
  const columns = Object.keys(rows[0]!);
  const cell = (value: unknown) => (value === undefined ? "" : /[",\n]/.test(String(value)) ? `"${String(value).replaceAll('"', '""')}"` : String(value));
  return file([columns.join(","), ...rows.map((row) => columns.map((c) => cell(row[c])).join(","))].join("\n") + "\n");
};

describe.each(testEngines())("catalogue import and export on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  async function setup() {
    const database = await freshDatabase(engine);
    cleanup(database.drop);
    await seedCatalogue(database);
    const events: CatalogueEvents =
      database.driver.engine === "postgres" ? new PostgresCatalogueEvents(database.driver.notifications, memoryLogger().log) : new InProcessCatalogueEvents(database.afterCommit);
    cleanup(() => events.close());
    await events.listening();
    const heard: CatalogueChanged[] = [];
    events.subscribe((change) => heard.push(change));
    const db = database.db;
    const load = (source: Readable, format: Format) => importProducts({ db, engine, events }, source, format, ACTOR);
    const product = (id: number) => db.selectFrom("products").selectAll().where("id", "=", id).executeTakeFirst();
    const count = async () => Number((await db.selectFrom("products").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
    const audit = () => db.selectFrom("audit_log").select(["actor", "action", "target", "after"]).execute();
    /** Every event this process has heard, once the events published so far have arrived. */
    const events_ = async (expected: number) => {
      await expect.poll(() => heard.length).toBe(expected);
      return heard.map(({ ids }) => ({ ids }));
    };
    return { database, db, load, product, count, audit, heard: events_ };
  }

  /** The seeded product 1 changed, 2 as it is, a new id, and one without an id in a new category (no rating: 0). */
  const [first, second] = SEED;
  const mixed: Array<Omit<SeedEntry, "id" | "rating"> & Partial<Pick<SeedEntry, "id" | "rating">>> = [
    { ...first!, title: "Waxed Canvas Rucksack, Olive", price: 95, stock: 7 },
    { ...second! },
    { id: 500, title: "Oak Plant Stand", price: 42.5, description: "Solid oak.", category: "garden", image: "https://img.example.com/stand.jpg", rating: { rate: 4.5, count: 12 }, stock: 3 },
    { title: "Copper Watering Can", price: 31, description: "Holds two litres.", category: "garden", image: "", stock: 9 },
  ];

  async function expectMixedLoaded(t: Awaited<ReturnType<typeof setup>>, versionOfFirst: number) {
    expect(await t.count()).toBe(SEED.length + 2);
    expect(await t.product(1)).toMatchObject({ title: "Waxed Canvas Rucksack, Olive", price_cents: 9500, stock: 7, version: versionOfFirst, rating_count: first!.rating.count });
    expect(await t.product(2)).toMatchObject({ title: second!.title, version: 1 });
    expect(await t.product(500)).toMatchObject({ title: "Oak Plant Stand", price_cents: 4250, category: "garden", image: "https://img.example.com/stand.jpg", rating_count: 12, stock: 3 });
    expect(Number((await t.product(500))!.rating_rate)).toBe(4.5);
    // A row without an id is added after every id the file names.
    expect(await t.product(501)).toMatchObject({ title: "Copper Watering Can", price_cents: 3100, rating_count: 0, stock: 9 });
    expect(await t.db.selectFrom("categories").select("name").where("name", "=", "garden").execute()).toHaveLength(1);
  }

  it("loads JSON: updates by id, leaves what is as the file has it, adds new ids and rows without one; one audit entry, one event", async () => {
    const t = await setup();
    expect(await t.load(file(JSON.stringify(mixed)), "json")).toEqual({ ok: true, added: 2, updated: 1, unchanged: 1 });
    await expectMixedLoaded(t, 2);
    const entries = await t.audit();
    expect(entries).toHaveLength(1);
    expect({ ...entries[0], after: JSON.parse(entries[0]!.after!) }).toEqual({ actor: "npm run catalogue", action: "products.import", target: "products", after: { added: 2, updated: 1, unchanged: 1 } });
    expect(await t.heard(1)).toEqual([{ ids: [1, 500, 501] }]);
  });

  it("loads CSV, rating columns and all; an empty rating keeps the product's own", async () => {
    const t = await setup();
    const rows = mixed.map(({ rating, ...row }) => ({ id: undefined, ...row, rating_rate: rating?.rate, rating_count: rating?.count }));
    rows[0] = { ...rows[0]!, rating_rate: undefined, rating_count: undefined };
    expect(await t.load(csvFile(rows), "csv")).toEqual({ ok: true, added: 2, updated: 1, unchanged: 1 });
    await expectMixedLoaded(t, 2);
    expect(Number((await t.product(1))!.rating_rate)).toBe(first!.rating.rate);
    expect(await t.heard(1)).toEqual([{ ids: [1, 500, 501] }]);
  });

  it("writes nothing from a file with a bad row, and names each bad row and field", async () => {
    const t = await setup();
    const rows = [
      { ...first!, title: "Changed" },
      { ...second!, price: -1 },
      { id: 600, title: "", price: 5, description: "x", category: "new", image: "a b.png", stock: 2 },
      { id: 1, title: "Twice", price: 5, description: "x", category: "new", image: "", stock: 2 },
      { title: "Fine", price: 5, description: "x", category: "new", image: "", rating: { rate: 9, count: 1 }, stock: 1.5 },
    ];
    const outcome = await t.load(file(JSON.stringify(rows)), "json");
    expect(outcome).toEqual({
      ok: false,
      unlisted: 0,
      problems: [
        { row: 2, field: "price", message: "The price cannot be negative." },
        { row: 3, field: "title", message: "Enter a title." },
        { row: 3, field: "image", message: expect.stringContaining("The image must be") },
        { row: 4, field: "id", message: "The id 1 is also on row 1." },
        { row: 5, field: "stock", message: "Enter the stock as a whole number." },
        { row: 5, field: "rating.rate", message: "The rating must be a number from 0 to 5." },
      ],
    });
    expect(await t.count()).toBe(SEED.length);
    expect(await t.product(1)).toMatchObject({ title: first!.title, version: 1 });
    expect(await t.db.selectFrom("categories").select("name").where("name", "=", "new").execute()).toEqual([]);
    expect(await t.audit()).toEqual([]);
    expect(await t.load(file('[{"id": 1,'), "json")).toEqual({ ok: false, unlisted: 0, problems: [{ row: null, field: "", message: expect.stringContaining("not a JSON array of products") }] });
    expect(await t.load(file("title,price,cost\nA,1,2\n"), "csv")).toMatchObject({ ok: false, problems: [{ row: null, message: expect.stringContaining('unknown column "cost"; no "description", "category", "stock" column') }] });
    expect(await t.count()).toBe(SEED.length);
  });

  it("exports the products on sale, and the file loads back unchanged", async () => {
    const t = await setup();
    await t.db.transaction().execute((trx) => updateProductAt(trx, 3, 1, { archived_at: Date.now() }, Date.now()));
    await t.load(file(JSON.stringify([{ id: 700, title: 'Quoted "Tee", with, commas', price: 10.1, description: "Two\nlines", category: "garden", image: "upload:abc123", stock: 1 }])), "json");
    for (const format of ["json", "csv"] as const) {
      const exported = await text(exportProducts(t.db, format));
      if (format === "json") {
        const products = JSON.parse(exported) as Array<{ id: number; price: number; rating: unknown }>;
        expect(products.map((p) => p.id)).not.toContain(3);
        expect(products).toHaveLength(SEED.length);
        expect(products[0]).toEqual(first);
      } else expect(exported.split("\n")[0]).toBe("id,title,price,description,category,image,rating_rate,rating_count,stock");
      expect(await t.load(file(exported), format)).toEqual({ ok: true, added: 0, updated: 0, unchanged: SEED.length });
    }
    // The loads that changed nothing published nothing.
    expect(await t.heard(1)).toEqual([{ ids: [700] }]);
  });

  it("names no products in the event when more than a hundred changed", async () => {
    const t = await setup();
    const many = Array.from({ length: 150 }, (_, i) => ({ title: `Seedling ${i}`, price: 2, description: "", category: "garden", image: "", stock: 10 }));
    expect(await t.load(file(JSON.stringify(many)), "json")).toEqual({ ok: true, added: 150, updated: 0, unchanged: 0 });
    expect(await t.heard(1)).toEqual([{ ids: null }]);
    expect(await t.count()).toBe(SEED.length + 150);
  });
});
