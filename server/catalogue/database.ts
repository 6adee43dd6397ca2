import { type Kysely, type Selectable, sql } from "kysely";
import type { AppDatabase } from "../db/database.ts";
import { prepared } from "../db/prepared.ts";
import type { ProductsTable, Schema } from "../db/schema.ts";
import type { Logger } from "../log.ts";
import type { Catalogue, CatalogueChange, ImageSource, ListedProduct } from "./catalogue.ts";
import { EmbeddedCatalogue, PRODUCT_IMAGE_PATH } from "./embedded.ts";
import type { CatalogueChanged, CatalogueEvents, StockFigures } from "./events.ts";
import type { Product } from "./product.ts";
import { PRODUCT_COLUMNS } from "./products-table.ts";
import { seedCatalogue } from "./seed.ts";
import { UPLOADS_DIR, UploadedImages } from "./uploaded-images.ts";

/** A product row as the catalogue reads it, with the units of its lapsed (expired, not yet swept) reservations. */
type Row = Selectable<ProductsTable> & { lapsed: number | string | null };
/** The columns of a row that listing facts come from. */
type ListedRow = Pick<Row, "id" | "category" | "price_cents" | "rating_rate" | "rating_count" | "stock" | "reserved" | "updated" | "archived_at" | "lapsed">;

const lapsedUnits = (now: number) => sql<number | string | null>`(select sum(r.amount) from reservations r where r.product_id = p.id and r.state = 'held' and r.expires_at <= ${now})`.as("lapsed");

const productsWithLapsed = (db: Kysely<Schema>, now: number) =>
  db
    .selectFrom("products as p")
    .select(PRODUCT_COLUMNS.map((column) => `p.${column}` as const))
    .select(lapsedUnits(now));

const LISTED_COLUMNS = ["p.id", "p.category", "p.price_cents", "p.rating_rate", "p.rating_count", "p.stock", "p.reserved", "p.updated", "p.archived_at"] as const;
const listedRows = (db: Kysely<Schema>, now: number) => db.selectFrom("products as p").select(LISTED_COLUMNS).select(lapsedUnits(now)).orderBy("p.id");

/** Whole products of `ids` (what a page shows), and the listing facts of every product or of those a change named. */
const productsById = prepared((db: Kysely<Schema>, p: { ids: number[]; now: number }) => productsWithLapsed(db, p.now).where("p.id", "in", p.ids));
const allListed = prepared((db: Kysely<Schema>, p: { now: number }) => listedRows(db, p.now));
const listedById = prepared((db: Kysely<Schema>, p: { ids: number[]; now: number }) => listedRows(db, p.now).where("p.id", "in", p.ids));

/** What can be sold now: the stock less what is held, where held units whose hold has lapsed count again. */
const available = (row: Pick<Row, "stock" | "reserved" | "lapsed">): number => Math.max(0, row.stock - row.reserved + Number(row.lapsed ?? 0));

/**
 * The catalogue in the shop's database (the default): products, categories and stock, seeded once
 * from catalogue/products.json. What lists are sorted and paged by (listing facts: ids, categories,
 * prices, ratings, stock) is held in memory, a few megabytes at 100,000 products; the products a
 * page shows are read from the database as it renders. The facts are read again whenever a
 * catalogue-changed event arrives from any instance (a sale, a reservation, a stock change), and
 * listeners hear which products changed (only those are read again). Archived products are not
 * listed: gone from pages, search and the API. The pictures are the embedded drawings, served as
 * before, and those uploaded in the back office (uploaded-images.ts).
 */
export class DatabaseCatalogue implements Catalogue {
  readonly images: ImageSource;
  /** Pictures uploaded in the back office. */
  readonly uploads: UploadedImages;
  private products: ListedProduct[] = [];
  /** One string per category name, shared by every product of it. */
  private readonly categories = new Map<string, string>();
  /** When each product of the copy last changed: its row's `updated` (epoch ms). */
  private updated = new Map<number, number>();
  private readonly listeners = new Set<(change: CatalogueChange) => void>();
  private readonly drawings = new EmbeddedCatalogue();
  private reloading: Promise<void> | null = null;
  /** Changes heard while a reload ran: they need one more. */
  private pending: Set<number> | null = null;
  private pendingAll = false;
  /** Whether a change heard while a reload ran was more than stock. */
  private pendingEdits = false;
  private readonly unsubscribe: () => void;

  private constructor(
    private readonly database: Pick<AppDatabase, "db">,
    private readonly events: CatalogueEvents,
    private readonly log: Logger,
    private readonly now: () => number,
  ) {
    this.uploads = new UploadedImages(database.db);
    const drawings = this.drawings.images;
    this.images = {
      basePath: PRODUCT_IMAGE_PATH,
      serve: (path, request) => (path.startsWith(UPLOADS_DIR) ? this.uploads.serve(path.slice(UPLOADS_DIR.length), request) : drawings.serve(path, request)),
    };
    this.unsubscribe = events.subscribe((change) => this.changed(change));
  }

  /** Seeds the database at its first start, reads the products and listens for changes. */
  static async open(database: Pick<AppDatabase, "db">, events: CatalogueEvents, log: Logger, now: () => number = () => Date.now()): Promise<DatabaseCatalogue> {
    if (await seedCatalogue(database)) log.info("catalogue seeded from catalogue/products.json");
    const catalogue = new DatabaseCatalogue(database, events, log, now);
    await catalogue.reload();
    return catalogue;
  }

  async listed(): Promise<readonly ListedProduct[]> {
    return this.products;
  }

  lastModified(): ReadonlyMap<number, number> {
    return this.updated;
  }

  async byId(id: number): Promise<Product | null> {
    return (await this.byIds([id]))[0] ?? null;
  }

  /** Read from the database as they are now, so a page shows what an edit or a sale left. */
  async byIds(ids: readonly number[]): Promise<Product[]> {
    if (ids.length === 0) return [];
    const { rows } = await productsById(this.database.db, { ids: [...ids], now: this.now() });
    const found = new Map(rows.filter((row) => row.archived_at === null).map((row) => [row.id, this.product(row)]));
    return ids.flatMap((id) => found.get(id) ?? []);
  }

  health() {
    return { source: "database", state: "fresh" } as const;
  }

  onChange(listener: (change: CatalogueChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves once the copy reflects every change heard so far (tests, and anyone who must read after a write). */
  async settled(): Promise<void> {
    while (this.reloading) await this.reloading;
  }

  close(): void {
    this.unsubscribe();
    this.listeners.clear();
  }

  private changed(change: CatalogueChanged) {
    // A checkout's new stock figures, heard in commit order, are taken as they are when nothing
    // is being read again (a read under way may have begun before their commit): no read per
    // checkout on every instance.
    if (change.figures && !this.reloading && this.take(change.figures)) {
      this.tell({ ids: change.ids, stockOnly: true });
      return;
    }
    // One change of more than stock among those read together makes the whole read one.
    if (!change.stockOnly) this.pendingEdits = true;
    if (change.ids === null) this.pendingAll = true;
    else for (const id of change.ids) (this.pending ??= new Set()).add(id);
    if (!this.reloading) this.reloading = this.drain();
  }

  /** Reads the products again until no change is left unread, telling listeners after each read. */
  private async drain(): Promise<void> {
    try {
      while (this.pending || this.pendingAll) {
        const change: CatalogueChange = { ids: this.pendingAll ? null : [...this.pending!], ...(!this.pendingEdits && { stockOnly: true }) };
        this.pending = null;
        this.pendingAll = false;
        this.pendingEdits = false;
        try {
          await this.reload(change.ids);
        } catch (error) {
          this.log.error({ err: error }, "catalogue reload failed; pages keep the previous copy");
          return;
        }
        this.tell(change);
      }
    } finally {
      this.reloading = null;
    }
  }

  private tell(change: CatalogueChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        this.log.error({ err: error }, "catalogue change listener failed");
      }
    }
  }

  /** Puts `figures` in place in a new copy; false (nothing changed) when a product is not in the copy. */
  private take(figures: StockFigures[]): boolean {
    const byId = new Map(figures.map((f) => [f.id, f]));
    let found = 0;
    const products = this.products.map((product) => {
      const f = byId.get(product.id);
      if (!f) return product;
      found++;
      return { ...product, stock: Math.max(0, f.stock - f.reserved) };
    });
    if (found !== byId.size) return false;
    this.products = products;
    // The checkout stamped the rows as it committed, just before it was heard.
    const now = this.now();
    for (const id of byId.keys()) this.updated.set(id, now);
    return true;
  }

  /**
   * Reads the products again: all of them, or only `ids` (a sale or an edit), put in place of their
   * old copies. Either way a new array, so whoever kept the old one knows it is stale.
   */
  private async reload(ids: number[] | null = null): Promise<void> {
    if (ids?.length === 0) return;
    const now = this.now();
    const { db } = this.database;
    const { rows } = ids ? await listedById(db, { ids, now }) : await allListed(db, { now });
    const listed = rows.filter((row) => row.archived_at === null);
    const fresh = listed.map((row) => this.listedOf(row));
    if (!ids) {
      this.products = fresh;
      this.updated = new Map(listed.map((row) => [row.id, Number(row.updated)]));
      return;
    }
    for (const id of ids) this.updated.delete(id);
    for (const row of listed) this.updated.set(row.id, Number(row.updated));
    const reread = new Set(ids);
    this.products = [...this.products.filter((p) => !reread.has(p.id)), ...fresh].sort((a, b) => a.id - b.id);
  }

  private listedOf(row: ListedRow): ListedProduct {
    let category = this.categories.get(row.category);
    if (category === undefined) this.categories.set(row.category, (category = row.category));
    return { id: row.id, category, priceCents: row.price_cents, rating: { rate: Number(row.rating_rate), count: row.rating_count }, stock: available(row) };
  }

  private product(row: Row): Product {
    return {
      id: row.id,
      title: row.title,
      priceCents: row.price_cents,
      description: row.description,
      category: row.category,
      ...this.imageOf(row.image),
      rating: { rate: Number(row.rating_rate), count: row.rating_count },
      stock: available(row),
    };
  }

  /**
   * The addresses of a product's `image` column: an embedded drawing's carries its content hash and an
   * upload's its own id (both cached for good); anything else is used as it is.
   */
  imageOf(image: string): Pick<Product, "image" | "imageSrcSet"> {
    const uploaded = this.uploads.link(image, PRODUCT_IMAGE_PATH);
    if (uploaded) return uploaded;
    const file = this.drawings.files.get(image);
    return { image: file ? `${PRODUCT_IMAGE_PATH}${image}?v=${file.etag.replaceAll('"', "")}` : image };
  }
}
