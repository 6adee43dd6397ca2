import { acceptsGzip } from "../http/compression.ts";
import type { Telemetry } from "../observability/port.ts";
import type { ReadyAnswer } from "../pipeline/ready-answer.ts";
import { SizedLru } from "./sized-lru.ts";
import { joined } from "../pipeline/ready-answer.ts";
import { SplicedGzip } from "./spliced-gzip.ts";

interface Entry {
  page: SplicedGzip;
  status: number;
  /** A hit's headers, plain and gzipped, made once (without Content-Length: the sender adds the body's). */
  plainHeaders: Record<string, string>;
  gzipHeaders: Record<string, string>;
}

/**
 * Rendered HTML for anonymous visitors. The basket is client state, so a page without a session
 * is the same for everyone, except for the Content-Security-Policy nonce, which must be fresh in
 * every response: the cached copy is the page cut at its nonces, and each hit gets its own
 * response's nonce put back, gzipped without compressing the page again (see SplicedGzip). Bounded by entries and bytes (least recently used goes first),
 * and dropped where the catalogue's data changes (only the pages that show a changed product).
 */
export class PageCache {
  private readonly entries: SizedLru<Entry>;

  constructor(private readonly limits: { maxEntries: number; maxBytes: number; telemetry?: Pick<Telemetry, "pageCache"> }) {
    this.entries = new SizedLru(limits, (entry) => entry.page.bytes);
  }

  /** Whether `key` has a page (no lookup is counted): the pipeline asks before it answers in front of Hono. */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** A cached page for `key` with `nonce` in it, gzipped when the client takes gzip, or null. */
  get(key: string, nonce: string, acceptEncoding: string | undefined): Response | null {
    const hit = this.lookup(key, nonce, acceptEncoding);
    return hit && new Response(hit.body && joined(hit.body), { status: hit.status, headers: new Headers(hit.headers) });
  }

  /** As `get`, as the status, headers and bytes to send (what node:http writes without a Response). */
  lookup(key: string, nonce: string, acceptEncoding: string | undefined): ReadyAnswer | null {
    const entry = this.entries.use(key);
    this.limits.telemetry?.pageCache(entry ? "hit" : "miss");
    if (!entry) return null;
    const gzip = acceptsGzip(acceptEncoding);
    const body = gzip ? entry.page.gzip(nonce) : entry.page.text(nonce);
    return { status: entry.status, headers: gzip ? entry.gzipHeaders : entry.plainHeaders, body };
  }

  /**
   * Keeps `response` (a page rendered with `nonce`) when it may be shared: 200, HTML, no cookie set.
   * Returns the response to send, which is the same page either way.
   */
  async put(key: string, nonce: string, response: Response): Promise<Response> {
    if (!shareablePage(response) || nonce === "") return response;
    const html = await response.text();
    const headers = [...response.headers].filter(([name]) => name !== "content-length");
    const page = new SplicedGzip(html.split(nonce));
    const plainHeaders = { ...Object.fromEntries(headers), "x-page-cache": "hit", vary: "Accept-Encoding" };
    this.entries.set(key, { page, status: response.status, plainHeaders, gzipHeaders: { ...plainHeaders, "content-encoding": "gzip" } });
    const sent = new Headers(headers);
    sent.set("X-Page-Cache", "miss");
    return new Response(html, { status: response.status, headers: sent });
  }

  /** Drops the pages whose key `affected` picks (the pages that show a changed product). */
  drop(affected: (key: string) => boolean): void {
    this.entries.drop(affected);
  }

  clear(): void {
    this.entries.clear();
  }
}

/** A rendered page anyone may be given a copy of: 200, HTML, setting no cookie. */
export function shareablePage(response: Response): boolean {
  return response.status === 200 && response.headers.get("content-type")?.startsWith("text/html") === true && !response.headers.has("set-cookie");
}
