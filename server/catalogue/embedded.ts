import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import type { Catalogue, CatalogueChange, ImageRequest, ImageSource } from "./catalogue.ts";
import { fakeStoreProduct, fromFakeStore, type Product } from "./product.ts";

const CATALOGUE_DIR = fileURLToPath(new URL("../../catalogue/", import.meta.url));
export const PRODUCT_IMAGE_PATH = "/images/products/";
const IMMUTABLE = "public, max-age=31536000, immutable";

export interface ImageFile {
  body: Buffer;
  etag: string;
}

/**
 * The catalogue shipped in the repository: catalogue/products.json and the SVG drawings in
 * catalogue/images. Read and checked once at start-up; image URLs carry a content hash so they
 * can be cached for good.
 */
export class EmbeddedCatalogue implements Catalogue {
  /** The drawings by file name (tests read them to check each one). */
  readonly files = new Map<string, ImageFile>();
  readonly images: ImageSource = { basePath: PRODUCT_IMAGE_PATH, serve: async (file, request) => this.serveImage(file, request) };
  private readonly products: Product[];
  private readonly byIdMap: Map<number, Product>;

  constructor(dir = CATALOGUE_DIR) {
    const raw: unknown = JSON.parse(fs.readFileSync(path.join(dir, "products.json"), "utf8"));
    const entries = z.array(fakeStoreProduct).parse(raw);
    this.products = entries
      .map((entry) => {
        const file = entry.image;
        if (!/^[\w-]+\.svg$/.test(file)) throw new Error(`Product ${entry.id}: bad image file name ${file}`);
        const body = fs.readFileSync(path.join(dir, "images", file));
        const hash = createHash("sha256").update(body).digest("hex").slice(0, 12);
        this.files.set(file, { body, etag: `"${hash}"` });
        return fromFakeStore({ ...entry, image: `${PRODUCT_IMAGE_PATH}${file}?v=${hash}` });
      })
      .sort((a, b) => a.id - b.id);
    if (new Set(this.products.map((p) => p.id)).size !== this.products.length) {
      throw new Error("catalogue/products.json has duplicate product ids");
    }
    this.byIdMap = new Map(this.products.map((p) => [p.id, p]));
  }

  /** Every product, whole (the file is small: tests and the search index read it). */
  async list(): Promise<Product[]> {
    return this.products;
  }

  async listed() {
    return this.products;
  }

  async byId(id: number) {
    return this.byIdMap.get(id) ?? null;
  }

  async byIds(ids: readonly number[]) {
    return ids.flatMap((id) => this.byIdMap.get(id) ?? []);
  }

  health() {
    return { source: "embedded", state: "fresh" } as const;
  }

  onChange(_listener: (change?: CatalogueChange) => void): () => void {
    return () => {};
  }

  private serveImage(file: string, request: ImageRequest): Response {
    const image = this.files.get(file);
    if (!image) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=UTF-8" } });
    if (request.ifNoneMatch === image.etag) return new Response(null, { status: 304, headers: { ETag: image.etag } });
    return new Response(new Uint8Array(image.body), {
      headers: { "Content-Type": "image/svg+xml", "Cache-Control": IMMUTABLE, ETag: image.etag },
    });
  }
}
