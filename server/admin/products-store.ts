import type { Readable } from "node:stream";
import { isDeepStrictEqual } from "node:util";
import { type Kysely, type Selectable, sql, type Transaction } from "kysely";
import type { DatabaseCatalogue } from "../catalogue/database.ts";
import type { CatalogueEvents } from "../catalogue/events.ts";
import { insertProducts, PRODUCT_COLUMNS, type ProductUpdate, updateProductAt } from "../catalogue/products-table.ts";
import { UPLOADED } from "../catalogue/uploaded-images.ts";
import type { ProductsTable, Schema } from "../db/schema.ts";
import { exportProducts } from "../catalogue/transfer/export.ts";
import { importProducts } from "../catalogue/transfer/import.ts";
import type { Format } from "../catalogue/transfer/parse.ts";
import type { Engine } from "../db/database.ts";
import { titleSearch } from "../search/title-search.ts";
import { inTransaction } from "../stock/transaction.ts";
import { type CatalogueImport, importRequest } from "./catalogue-file.ts";
import { type Actor, appendAudit } from "../audit/log.ts";
import {
  type AdminProduct,
  DEFAULT_LIMIT,
  type ProductFields,
  productEdit,
  productFields,
  type ProductList,
  type ProductQuery,
  type ProductRefusal,
  type ProductsAdmin,
  type ProductWrite,
  parsed,
  STALE_EDIT,
} from "./products.ts";

type Row = Selectable<ProductsTable>;

const notFound = (id: number): ProductRefusal => ({ ok: false, status: 404, message: `No product with id ${id}.` });
const stale: ProductRefusal = { ok: false, status: 409, message: STALE_EDIT };
/** LIKE's own characters, taken literally. */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** What the audit log keeps of a product: its own fields, money in cents. */
const audited = (row: Row) => ({
  title: row.title,
  priceCents: row.price_cents,
  description: row.description,
  category: row.category,
  stock: row.stock,
  image: row.image,
  archived: row.archived_at !== null,
});

/**
 * The products in the shop's database. Each write is one transaction: a single conditional update
 * (`where version = :v`, its row count decides), the audit entry, and the catalogue-changed event,
 * which every instance's catalogue copy, page cache, search index and API hear once it commits.
 */
export class DatabaseProducts implements ProductsAdmin {
  readonly source = { editable: true } as const;

  constructor(
    private readonly deps: {
      db: Kysely<Schema>;
      engine: Engine;
      events: CatalogueEvents;
      catalogue: Pick<DatabaseCatalogue, "imageOf" | "uploads">;
      now?: () => number;
    },
  ) {}

  private get db() {
    return this.deps.db;
  }

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  async list({ q = "", category, sort = "id", page = 1, limit = DEFAULT_LIMIT }: ProductQuery): Promise<ProductList> {
    let query = this.db.selectFrom("products");
    const words = q.trim().toLowerCase();
    if (words) query = query.where(titleSearch(this.deps.engine, words) ?? sql<boolean>`lower(title) like ${`%${likeEscaped(words)}%`} escape '\\'`);
    if (category) query = query.where("category", "=", category);
    // Ties by id in the same direction, so the (stock, id) index gives the order, read either way, without a sort.
    const ordered =
      sort === "id"
        ? query.select(PRODUCT_COLUMNS).orderBy("id", "asc")
        : query.select(PRODUCT_COLUMNS).orderBy("stock", sort === "stock" ? "asc" : "desc").orderBy("id", sort === "stock" ? "asc" : "desc");
    const read = (at: number) => ordered.limit(limit).offset((at - 1) * limit).execute();
    // The count and the page side by side (two connections on PostgreSQL); a page past the end is
    // read again as the last one.
    const [{ found }, asked] = await Promise.all([query.select((eb) => eb.fn.countAll<number | string>().as("found")).executeTakeFirstOrThrow(), read(page)]);
    const total = Number(found);
    const pages = Math.max(1, Math.ceil(total / limit));
    const at = Math.min(page, pages);
    const rows = at === page ? asked : await read(at);
    return { products: rows.map((row) => this.shape(row)), total, page: at, pages, limit };
  }

  async get(id: number): Promise<AdminProduct | null> {
    const row = await this.row(this.db, id);
    return row ? this.shape(row) : null;
  }

  async categories(): Promise<string[]> {
    return (await this.db.selectFrom("categories").select("name").orderBy("name").execute()).map((row) => row.name);
  }

  async create(actor: Actor, input: unknown): Promise<ProductWrite> {
    const fields = parsed(productFields, input);
    if (!fields.ok) return fields;
    const now = this.now();
    return this.write(async (trx) => {
      const unknown = await this.unknownCategory(trx, fields.value.category);
      if (unknown) return unknown;
      // The next id, taken with `on conflict do nothing`: a create racing this one for the same id
      // makes this insert nothing, and the next round reads the id it took.
      for (;;) {
        const { top } = await trx.selectFrom("products").select((eb) => eb.fn.max<number | null>("id").as("top")).executeTakeFirstOrThrow();
        const id = Number(top ?? 0) + 1;
        const inserted = await insertProducts(trx, [{ id, ...columns(fields.value), image: "", rating_rate: 0, rating_count: 0, reserved: 0, updated: now, version: 1, archived_at: null }]);
        if (inserted === 0) continue;
        const row = (await this.row(trx, id))!;
        await appendAudit(trx, { actor, action: "product.create", target: `product:${id}`, after: audited(row) }, now);
        return this.changed(trx, row);
      }
    });
  }

  async update(actor: Actor, id: number, input: unknown): Promise<ProductWrite> {
    const edit = parsed(productEdit, input);
    if (!edit.ok) return edit;
    const { version, stockWas, ...fields } = edit.value;
    // Sales do not move the version: with stockWas the admin's change applies to the stock as it is now.
    const delta = stockWas === undefined ? null : fields.stock - stockWas;
    const set: ProductUpdate = {
      ...columns(fields),
      ...(delta === null ? {} : { stock: sql<number>`case when stock + ${delta} < 0 then 0 else stock + ${delta} end` }),
    };
    return this.write(async (trx) => {
      const unknown = await this.unknownCategory(trx, fields.category);
      if (unknown) return unknown;
      return this.change(trx, actor, "product.update", id, version, set);
    });
  }

  async setArchived(actor: Actor, id: number, archived: boolean, version?: number): Promise<ProductWrite> {
    const now = this.now();
    return this.write((trx) => this.change(trx, actor, archived ? "product.archive" : "product.unarchive", id, version, { archived_at: archived ? now : null }));
  }

  async uploadImage(actor: Actor, id: number, bytes: Uint8Array, version?: number): Promise<ProductWrite> {
    if (!(await this.row(this.db, id))) return notFound(id);
    const rendered = await this.deps.catalogue.uploads.render(bytes);
    if (!rendered.ok) return rendered;
    return this.write(async (trx) => {
      await this.deps.catalogue.uploads.store(trx, rendered, this.now());
      return this.change(trx, actor, "product.image", id, version, { image: `${UPLOADED}${rendered.imageId}` });
    });
  }

  /**
   * One edit: the row as it was (for the audit entry; 404 when there is none), then the update,
   * applied only while the version is still the one the edit started from (any version when the
   * caller named none), with the version moved on. An edit that changes none of the product's own
   * fields (archiving an archived product, a save of what is there) is rolled back: no new version,
   * no audit entry, no event, and the product as it is for the answer.
   */
  private async change(trx: Transaction<Schema>, actor: Actor, action: string, id: number, version: number | undefined, set: ProductUpdate): Promise<ProductWrite> {
    const before = await this.row(trx, id);
    if (!before) return notFound(id);
    const expected = version ?? before.version;
    if (before.version !== expected) return stale;
    const now = this.now();
    if (!(await updateProductAt(trx, id, expected, set, now))) return stale;
    const after = (await this.row(trx, id))!;
    if (isDeepStrictEqual(audited(before), audited(after))) throw new RolledBack({ ok: true, product: this.shape(before) });
    await appendAudit(trx, { actor, action, target: `product:${id}`, before: audited(before), after: audited(after) }, now);
    return this.changed(trx, after);
  }

  private async changed(trx: Transaction<Schema>, row: Row): Promise<ProductWrite> {
    await this.deps.events.publish(trx, { ids: [row.id] });
    return { ok: true, product: this.shape(row) };
  }

  importFile(actor: Actor, request: Request): Promise<CatalogueImport> {
    const { db, engine, events, now } = this.deps;
    return importRequest(request, (source, format) => importProducts({ db, engine, events, now }, source, format, actor));
  }

  exportFile(format: Format): Readable {
    return exportProducts(this.db, format);
  }

  /** A refusal, or an edit that changed nothing, rolls the transaction back (nothing of it is kept); a deadlock runs it again. */
  private async write(work: (trx: Transaction<Schema>) => Promise<ProductWrite>): Promise<ProductWrite> {
    try {
      return await inTransaction(this.db, async (trx) => {
        const outcome = await work(trx);
        if (!outcome.ok) throw new RolledBack(outcome);
        return outcome;
      });
    } catch (error) {
      if (error instanceof RolledBack) return error.outcome;
      throw error;
    }
  }

  private async unknownCategory(trx: Transaction<Schema>, name: string): Promise<ProductRefusal | null> {
    const found = await trx.selectFrom("categories").select("name").where("name", "=", name).executeTakeFirst();
    return found ? null : { ok: false, status: 400, message: `There is no category ${JSON.stringify(name)}.` };
  }

  private row(db: Kysely<Schema> | Transaction<Schema>, id: number): Promise<Row | undefined> {
    return db.selectFrom("products").select(PRODUCT_COLUMNS).where("id", "=", id).executeTakeFirst();
  }

  private shape(row: Row): AdminProduct {
    return {
      id: row.id,
      title: row.title,
      priceCents: row.price_cents,
      description: row.description,
      category: row.category,
      image: this.deps.catalogue.imageOf(row.image).image,
      stock: row.stock,
      reserved: row.reserved,
      version: row.version,
      archived: row.archived_at !== null,
    };
  }
}

/** Thrown in a write's transaction to roll it back and answer `outcome` instead. */
class RolledBack extends Error {
  constructor(readonly outcome: ProductWrite) {
    super(outcome.ok ? "unchanged" : outcome.message);
  }
}

function columns(fields: ProductFields) {
  return { title: fields.title, price_cents: fields.priceCents, description: fields.description, category: fields.category, stock: fields.stock };
}
