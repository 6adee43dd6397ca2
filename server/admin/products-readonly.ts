import type { Actor } from "../audit/log.ts";
import type { Catalogue } from "../catalogue/catalogue.ts";
import type { CatalogueImport } from "./catalogue-file.ts";
import type { Product } from "../catalogue/product.ts";
import { type AdminProduct, DEFAULT_LIMIT, type ProductList, type ProductQuery, type ProductsAdmin, type ProductWrite } from "./products.ts";

/** Why a catalogue that is not the shop's database cannot be changed here. */
export function readOnlyReason(catalogueUrl: string | undefined): string {
  return catalogueUrl
    ? `The catalogue comes from ${new URL(catalogueUrl).host}: change products there.`
    : "This shop's catalogue is not kept in its database: change products where it comes from.";
}

const shape = (product: Product): AdminProduct => ({
  id: product.id,
  title: product.title,
  priceCents: product.priceCents,
  description: product.description,
  category: product.category,
  image: product.image,
  stock: product.stock ?? null,
  reserved: 0,
  version: 1,
  archived: false,
});

/**
 * A catalogue the shop only reads (CATALOGUE_URL: a remote FakeStore-compatible host): the back
 * office lists its products, filtered and sorted as the database's, and refuses every write with why.
 */
export class ReadOnlyProducts implements ProductsAdmin {
  readonly source: { editable: false; reason: string };
  private readonly refusal: ProductWrite;

  constructor(
    private readonly catalogue: Catalogue,
    reason: string,
  ) {
    this.source = { editable: false, reason };
    this.refusal = { ok: false, status: 409, message: reason };
  }

  async list({ q = "", category, sort = "id", page = 1, limit = DEFAULT_LIMIT }: ProductQuery): Promise<ProductList> {
    const words = q.trim().toLowerCase();
    const found = (await this.whole()).filter((p) => (!words || p.title.toLowerCase().includes(words)) && (!category || p.category === category));
    const stock = (p: Product) => p.stock ?? Number.POSITIVE_INFINITY;
    // As the database orders them: ties by id, in the same direction.
    if (sort !== "id") found.sort((a, b) => (sort === "stock" ? stock(a) - stock(b) || a.id - b.id : stock(b) - stock(a) || b.id - a.id));
    const pages = Math.max(1, Math.ceil(found.length / limit));
    const at = Math.min(page, pages);
    return { products: found.slice((at - 1) * limit, at * limit).map(shape), total: found.length, page: at, pages, limit };
  }

  async get(id: number): Promise<AdminProduct | null> {
    const product = await this.catalogue.byId(id);
    return product ? shape(product) : null;
  }

  async categories(): Promise<string[]> {
    return [...new Set((await this.catalogue.listed()).map((p) => p.category))].sort();
  }

  /** Every product, whole: a catalogue the shop does not own is FakeStore-sized. */
  private async whole(): Promise<Product[]> {
    return this.catalogue.byIds((await this.catalogue.listed()).map((p) => p.id));
  }

  async create(): Promise<ProductWrite> {
    return this.refusal;
  }

  async update(): Promise<ProductWrite> {
    return this.refusal;
  }

  async setArchived(): Promise<ProductWrite> {
    return this.refusal;
  }

  async uploadImage(): Promise<ProductWrite> {
    return this.refusal;
  }

  async importFile(_actor: Actor, request: Request): Promise<CatalogueImport> {
    await request.body?.cancel();
    return { ok: false, status: 409, message: this.source.reason };
  }

  exportFile(): null {
    return null;
  }
}
