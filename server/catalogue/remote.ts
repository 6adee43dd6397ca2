import { z } from "zod";
import type { Logger } from "../log.ts";
import { type Catalogue, CatalogueUnavailableError } from "./catalogue.ts";
import { fakeStoreProduct, fromFakeStore, type Product } from "./product.ts";

export interface RemoteCatalogueOptions {
  baseUrl: string;
  timeoutMs: number;
  cacheSeconds: number;
  log: Logger;
}

interface CacheEntry {
  value: unknown;
  expires: number;
}

/**
 * A FakeStore-compatible catalogue host (e.g. https://fakestoreapi.com). Answers are cached for
 * `cacheSeconds`; concurrent requests for one path share one fetch; when the host fails, the last
 * good answer is served if there is one (none when caching is off). Malformed products are dropped
 * and logged, never rendered.
 */
export class RemoteCatalogue implements Catalogue {
  readonly imageOrigins: readonly string[];
  private readonly cache = new Map<string, CacheEntry>();
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly base: string;

  constructor(private readonly options: RemoteCatalogueOptions) {
    this.base = options.baseUrl.replace(/\/+$/, "");
    this.imageOrigins = [new URL(this.base).origin];
  }

  async list() {
    return this.products(await this.get("/products"), "/products");
  }

  async categories() {
    const body = await this.get("/products/categories");
    const parsed = z.array(z.string().min(1)).safeParse(body);
    if (!parsed.success) throw this.unavailable("/products/categories", "response is not a list of names");
    return [...parsed.data].sort();
  }

  async inCategory(name: string) {
    const where = `/products/category/${encodeURIComponent(name)}`;
    return this.products(await this.get(where), where);
  }

  async byId(id: number) {
    const where = `/products/${id}`;
    const body = await this.get(where, { notFoundIsNull: true });
    // FakeStore answers an unknown id with 200 and an empty body.
    if (body === null) return null;
    const parsed = fakeStoreProduct.safeParse(body);
    if (!parsed.success) {
      this.options.log.warn({ catalogue: this.base, path: where }, "catalogue product is malformed; not shown");
      return null;
    }
    return fromFakeStore(parsed.data);
  }

  private products(body: unknown, where: string): Product[] {
    if (!Array.isArray(body)) throw this.unavailable(where, "response is not a list");
    const products: Product[] = [];
    for (const item of body) {
      const parsed = fakeStoreProduct.safeParse(item);
      if (parsed.success) products.push(fromFakeStore(parsed.data));
      else
        this.options.log.warn(
          { catalogue: this.base, path: where, id: (item as { id?: unknown } | null)?.id },
          "catalogue product is malformed; dropped",
        );
    }
    return products.sort((a, b) => a.id - b.id);
  }

  private async get(where: string, { notFoundIsNull = false } = {}): Promise<unknown> {
    const cached = this.cache.get(where);
    if (cached && cached.expires > Date.now()) return cached.value;
    let pending = this.inFlight.get(where);
    if (!pending) {
      pending = this.fetchJson(where, notFoundIsNull).finally(() => this.inFlight.delete(where));
      this.inFlight.set(where, pending);
    }
    try {
      const value = await pending;
      // With caching off nothing is kept, not even a copy for when the host fails.
      if (this.options.cacheSeconds > 0) {
        this.cache.set(where, { value, expires: Date.now() + this.options.cacheSeconds * 1000 });
      }
      return value;
    } catch (error) {
      if (cached) {
        this.options.log.warn({ catalogue: this.base, path: where }, "catalogue unavailable; serving a stale copy");
        return cached.value;
      }
      throw error;
    }
  }

  private async fetchJson(where: string, notFoundIsNull: boolean): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(this.base + where, {
        headers: { accept: "application/json" },
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      const reason = error instanceof Error && error.name === "TimeoutError" ? `no answer within ${this.options.timeoutMs} ms` : String(error);
      throw this.unavailable(where, reason);
    }
    if (notFoundIsNull && response.status === 404) return null;
    if (!response.ok) throw this.unavailable(where, `HTTP ${response.status}`);
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw this.unavailable(where, `reading the body failed: ${String(error)}`);
    }
    if (notFoundIsNull && text.trim() === "") return null;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw this.unavailable(where, "response is not JSON");
    }
  }

  private unavailable(where: string, reason: string): CatalogueUnavailableError {
    this.options.log.error({ catalogue: this.base, path: where, reason }, "catalogue request failed");
    return new CatalogueUnavailableError(`Catalogue request ${where} failed: ${reason}`);
  }
}
