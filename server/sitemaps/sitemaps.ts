import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import type { Catalogue, ListedProduct } from "../catalogue/catalogue.ts";
import { inRuns, MAX_URLS, newest, type SitemapEntry, sitemapIndex, urlset } from "./xml.ts";

const gzipInPool = promisify(gzip);

/** One of the shop's sitemaps: its file name under /sitemaps/ and the addresses it lists. */
export interface SitemapFile {
  name: string;
  urls: SitemapEntry[];
}

const byName = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The shop's pages a search engine should know, absolute on `origin`, in sitemaps of at most `max`
 * addresses: `categories-n.xml` (the home page and each category's page, whose lastmod is its
 * newest product's) and `products-n.xml` (each product's page, its lastmod the product's own,
 * where the catalogue keeps one).
 */
export function sitemapFiles(products: readonly Pick<ListedProduct, "id" | "category">[], lastModified: ReadonlyMap<number, number> | undefined, origin: string, max = MAX_URLS): SitemapFile[] {
  const productUrls = products.map((product) => ({ loc: `${origin}/products/${product.id}`, lastmod: lastModified?.get(product.id) }));
  const categories = new Map<string, number | undefined>();
  for (const { id, category } of products) {
    const [was, at] = [categories.get(category), lastModified?.get(id)];
    categories.set(category, was === undefined || (at !== undefined && at > was) ? at : was);
  }
  const pages = [
    { loc: `${origin}/`, lastmod: newest(productUrls) },
    ...[...categories].sort(byName).map(([category, lastmod]) => ({ loc: `${origin}/results/${encodeURIComponent(category)}`, lastmod })),
  ];
  const files = (kind: string, urls: SitemapEntry[]) => inRuns(urls, max).map((run, i) => ({ name: `${kind}-${i + 1}.xml`, urls: run }));
  return [...files("categories", pages), ...files("products", productUrls)];
}

/** A text made once: its bytes, its ETag, and its gzip form once asked for. */
export interface Made {
  body: Buffer;
  etag: string;
  gzip(): Promise<Buffer>;
}

export function made(text: string): Made {
  const body = Buffer.from(text);
  let gzipped: Promise<Buffer> | null = null;
  return { body, etag: `"${createHash("sha1").update(body).digest("base64url")}"`, gzip: () => (gzipped ??= gzipInPool(body, { level: 9 })) };
}

/**
 * The sitemap index and the sitemaps, made from the catalogue's current list: the list is read on
 * every request, each file is made once for as long as the list is the same (a sale, an edit or a
 * refresh makes them again when next asked for). Products not in the list (archived) are not listed.
 */
export class Sitemaps {
  private readonly origin: string;
  private source: readonly ListedProduct[] | null = null;
  private files = new Map<string, SitemapFile>();
  private readonly made = new Map<string, Made>();

  constructor(
    private readonly catalogue: Pick<Catalogue, "listed" | "lastModified">,
    publicUrl: string,
  ) {
    this.origin = publicUrl.replace(/\/+$/, "");
  }

  /** The sitemap index: every sitemap, with its newest lastmod. */
  async index(): Promise<Made> {
    await this.current();
    return this.keep("", () => sitemapIndex([...this.files.values()].map(({ name, urls }) => ({ loc: `${this.origin}/sitemaps/${name}`, lastmod: newest(urls) }))));
  }

  /** The sitemap of that file name, or null when there is none. */
  async sitemap(name: string): Promise<Made | null> {
    await this.current();
    const file = this.files.get(name);
    return file ? this.keep(name, () => urlset(file.urls)) : null;
  }

  private async current(): Promise<void> {
    const products = await this.catalogue.listed();
    if (products === this.source) return;
    this.source = products;
    this.files = new Map(sitemapFiles(products, this.catalogue.lastModified?.(), this.origin).map((file) => [file.name, file]));
    this.made.clear();
  }

  private keep(key: string, make: () => string): Made {
    let kept = this.made.get(key);
    if (!kept) this.made.set(key, (kept = made(make())));
    return kept;
  }
}

/** robots.txt: crawlers may read the catalogue's pages, not the API, the back office or a shopper's pages. */
export function robotsTxt(publicUrl: string): string {
  const disallowed = ["/api/", "/admin", "/payment", "/orders", "/auth"];
  return ["User-agent: *", "Allow: /", ...disallowed.map((path) => `Disallow: ${path}`), "", `Sitemap: ${publicUrl.replace(/\/+$/, "")}/sitemap.xml`, ""].join("\n");
}
