import { type ImageProxy, PLACEHOLDER_PATH, REMOTE_IMAGE_PATH } from "../images/proxy.ts";
import { proxyImages } from "../images/source.ts";
import type { Logger } from "../log.ts";
import { noTelemetry, type Telemetry } from "../observability/port.ts";
import { type Catalogue, type CatalogueChange, type CatalogueHealth, CatalogueUnavailableError, type ImageSource } from "./catalogue.ts";
import { CircuitBreaker } from "./circuit-breaker.ts";
import { CatalogueFetchError, fetchCatalogueJson } from "./fetch-json.ts";
import { fakeStoreProduct, fromFakeStore, type Product } from "./product.ts";

export interface RemoteCatalogueOptions {
  baseUrl: string;
  timeoutMs: number;
  /**
   * How long a fetched list counts as fresh. An older copy is still answered at once, while one
   * refresh runs in the background; 0 refreshes after every read.
   */
  cacheSeconds: number;
  log: Logger;
  /** Serves the products' images from our origin; without it products keep the host's image URLs. */
  imageProxy?: ImageProxy;
  /** The clock (tests move it instead of waiting). */
  now?: () => number;
  /** The most an answer may be (default 10 MB): a bigger one is dropped as it streams. */
  maxBytes?: number;
  /** The circuit breaker's first and longest pause after failures: by default 2 s, doubling up to 60 s. */
  breaker?: { baseMs: number; maxMs: number };
  /** Fetches are traced (failed refreshes are counted through onRefresh). */
  telemetry?: Pick<Telemetry, "trace">;
}

/** How a refresh of the copy ended. */
export type RefreshOutcome = { ok: true } | { ok: false; error: string };

/** One good answer of the host's full product list, and what is derived from it. */
interface Copy {
  products: Product[];
  byId: Map<number, Product>;
  fetchedAt: number;
  fingerprint: string;
}

const noop = () => {};

/**
 * A FakeStore-compatible catalogue host (e.g. https://fakestoreapi.com).
 *
 * Everything is answered from one copy of the host's full product list (GET /products): the home
 * page needs that list anyway, and pages built from one copy always agree (a product listed on the
 * home page is never "not found" on its own page, its category page lists it). The copy is replaced
 * only by a good answer, so while the host is down every page answers from the last good copy.
 *
 * No page waits on a sick host: a copy past its freshness is answered at once and refreshed in the
 * background, one refresh at a time (stale-while-revalidate); after a failure the circuit breaker
 * keeps requests away for a growing pause. Only the very first read, with no copy and no failure
 * yet, waits for the host (up to the timeout). Malformed products are dropped and logged, never
 * rendered.
 */
export class RemoteCatalogue implements Catalogue {
  readonly images: ImageSource;
  private readonly imageProxy?: ImageProxy;
  private readonly base: string;
  private readonly now: () => number;
  private readonly breaker: CircuitBreaker;
  private readonly listeners = new Set<(change: CatalogueChange) => void>();
  private readonly refreshListeners = new Set<(outcome: RefreshOutcome) => void>();
  private readonly createdAt: number;
  private readonly refusedImageOrigins = new Set<string>();
  private copy: Copy | undefined;
  private refreshing: Promise<Copy> | undefined;
  /** Since when the host has been failing, and its latest failure; cleared by a good answer. */
  private failure: { since: number; error: string } | undefined;

  constructor(private readonly options: RemoteCatalogueOptions) {
    this.base = options.baseUrl.replace(/\/+$/, "");
    this.imageProxy = options.imageProxy;
    this.images = options.imageProxy ? proxyImages(options.imageProxy) : { basePath: REMOTE_IMAGE_PATH, serve: async () => new Response("Not found", { status: 404 }) };
    this.now = options.now ?? Date.now;
    this.breaker = new CircuitBreaker({ baseMs: 2_000, maxMs: 60_000, ...options.breaker, now: this.now });
    this.createdAt = this.now();
  }

  /** Every product, whole (a FakeStore-sized catalogue, held in memory anyway). */
  async list(): Promise<Product[]> {
    return (await this.current()).products;
  }

  async listed() {
    return (await this.current()).products;
  }

  async byId(id: number) {
    return (await this.current()).byId.get(id) ?? null;
  }

  async byIds(ids: readonly number[]) {
    const { byId } = await this.current();
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  onChange(listener: (change: CatalogueChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Fetches the first copy in the background, so the first visitor finds it ready (start-up does not wait). */
  warmUp(): void {
    if (!this.copy) this.refresh().catch(noop);
  }

  /**
   * Calls `listener` after each refresh of the copy, whether the host answered (`ok`) or not:
   * for the operators' metrics (failed refreshes) and for anyone who waits on a background refresh.
   */
  onRefresh(listener: (outcome: RefreshOutcome) => void): () => void {
    this.refreshListeners.add(listener);
    return () => this.refreshListeners.delete(listener);
  }

  health(): CatalogueHealth {
    const retry = this.breaker.retryAt;
    const retryAt = retry === undefined ? {} : { retryAt: iso(retry) };
    if (this.copy && !this.failure) return { source: "remote", state: "fresh", updatedAt: iso(this.copy.fetchedAt) };
    if (this.copy && this.failure) {
      return { source: "remote", state: "stale", since: iso(this.failure.since), updatedAt: iso(this.copy.fetchedAt), error: this.failure.error, ...retryAt };
    }
    return {
      source: "remote",
      state: "unavailable",
      since: iso(this.failure?.since ?? this.createdAt),
      error: this.failure?.error ?? "no answer from the catalogue host yet",
      ...retryAt,
    };
  }

  private current(): Promise<Copy> {
    const copy = this.copy;
    if (copy) {
      if (this.now() - copy.fetchedAt >= this.options.cacheSeconds * 1000 && this.breaker.allows()) this.refresh().catch(noop);
      return Promise.resolve(copy);
    }
    // No copy yet. Until the host has failed once, readers wait for it (at start-up there is nothing
    // better to show); after a failure they get the fallback at once, and an attempt runs in the
    // background whenever the breaker allows one.
    if (!this.breaker.failing) return this.refresh();
    if (this.breaker.allows()) this.refresh().catch(noop);
    return Promise.reject(
      new CatalogueUnavailableError(`Catalogue host ${this.base} failing since ${iso(this.failure?.since ?? this.createdAt)}; no copy to serve`),
    );
  }

  /** One request for the list at a time; every caller meanwhile shares it. */
  private refresh(): Promise<Copy> {
    this.refreshing ??= this.fetchCopy()
      .then(
        (copy) => this.succeeded(copy),
        (error: unknown) => this.failed(error),
      )
      .finally(() => {
        this.refreshing = undefined;
        const outcome: RefreshOutcome = this.failure ? { ok: false, error: this.failure.error } : { ok: true };
        for (const listener of this.refreshListeners) {
          try {
            listener(outcome);
          } catch (error) {
            this.options.log.error({ err: error }, "catalogue refresh listener failed");
          }
        }
      });
    return this.refreshing;
  }

  private succeeded(copy: Copy): Copy {
    const previous = this.copy;
    if (this.failure) this.options.log.info({ catalogue: this.base, since: iso(this.failure.since) }, "catalogue host answers again");
    this.copy = copy;
    this.failure = undefined;
    this.breaker.success();
    if (previous && previous.fingerprint !== copy.fingerprint) {
      for (const listener of this.listeners) {
        // A listener's own failure (say, rebuilding a search index) must not fail the catalogue's readers.
        try {
          listener({ ids: null });
        } catch (error) {
          this.options.log.error({ err: error }, "catalogue change listener failed");
        }
      }
    }
    return copy;
  }

  private failed(error: unknown): never {
    const reason = error instanceof Error ? error.message : String(error);
    this.breaker.failure();
    if (!this.failure) {
      this.failure = { since: this.now(), error: reason };
      if (this.copy) {
        this.options.log.warn({ catalogue: this.base, updatedAt: iso(this.copy.fetchedAt) }, "catalogue unavailable; serving the last good copy");
      }
    } else this.failure.error = reason;
    throw error;
  }

  private async fetchCopy(): Promise<Copy> {
    const body = await this.fetchJson("/products");
    if (!Array.isArray(body)) throw this.unavailable("/products", "response is not a list");
    const products: Product[] = [];
    for (const item of body) {
      const parsed = fakeStoreProduct.safeParse(item);
      // Stock is not tracked for a remote catalogue (unlimited), whatever the host says.
      if (parsed.success) products.push(this.withLocalImage(fromFakeStore({ ...parsed.data, stock: undefined })));
      else
        this.options.log.warn(
          { catalogue: this.base, path: "/products", id: (item as { id?: unknown } | null)?.id },
          "catalogue product is malformed; dropped",
        );
    }
    // A list of nothing but broken products is a broken answer, not an empty shop: keep the last good copy.
    if (body.length > 0 && products.length === 0) throw this.unavailable("/products", "no product in the response is well-formed");
    products.sort((a, b) => a.id - b.id);
    return {
      products,
      byId: new Map(products.map((p) => [p.id, p])),
      fetchedAt: this.now(),
      fingerprint: JSON.stringify(products),
    };
  }

  /** The product with its image served through our image proxy, or the placeholder for a host we do not fetch from. */
  private withLocalImage(product: Product): Product {
    if (!this.imageProxy) return product;
    let remote: string;
    try {
      remote = new URL(product.image, `${this.base}/`).href;
    } catch {
      return { ...product, image: PLACEHOLDER_PATH };
    }
    const linked = this.imageProxy.link(remote);
    if (linked) return { ...product, ...linked };
    const { origin } = new URL(remote);
    if (!this.refusedImageOrigins.has(origin)) {
      this.refusedImageOrigins.add(origin);
      this.options.log.warn(
        { catalogue: this.base, origin },
        "catalogue images on an origin that is not allowed; showing placeholders (add it to CATALOGUE_IMAGE_ORIGINS to show them)",
      );
    }
    return { ...product, image: PLACEHOLDER_PATH };
  }

  private fetchJson(where: string): Promise<unknown> {
    const trace = (this.options.telemetry ?? noTelemetry).trace;
    return trace("catalogue fetch", { "server.address": new URL(this.base).host, "url.path": where }, () => this.fetchJsonNow(where));
  }

  private async fetchJsonNow(where: string): Promise<unknown> {
    try {
      return await fetchCatalogueJson(this.base + where, { timeoutMs: this.options.timeoutMs, maxBytes: this.options.maxBytes });
    } catch (error) {
      throw this.unavailable(where, error instanceof CatalogueFetchError ? error.message : String(error));
    }
  }

  private unavailable(where: string, reason: string): CatalogueUnavailableError {
    this.options.log.error({ catalogue: this.base, path: where, reason }, "catalogue request failed");
    return new CatalogueUnavailableError(`Catalogue request ${where} failed: ${reason}`);
  }
}

function iso(time: number): string {
  return new Date(time).toISOString();
}
