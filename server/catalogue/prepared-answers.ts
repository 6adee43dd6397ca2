import { createHash } from "node:crypto";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { preferredEncoding } from "../http/compression.ts";
import type { ReadyAnswer } from "../pipeline/ready-answer.ts";
import type { ListedProduct } from "./catalogue.ts";

type Encoding = "br" | "gzip" | "identity";

/** One catalogue API answer, serialised, hashed and compressed once for as long as the catalogue's data is the same. */
interface Prepared {
  /** The catalogue's list it was made from: a different list (a change) means a stale answer. */
  source: readonly ListedProduct[];
  /** The route pattern that made it ("/api/catalogue/products/:id"), for the request metrics and log. */
  route: string;
  json: string;
  /** Headers of this answer's own (a page's links), on every form and the 304. */
  headers: Record<string, string>;
  etag: string;
  forms: Partial<Record<Encoding, ReadyAnswer>>;
  notModified: ReadyAnswer;
}

/** Public, read-only data: every site may read it (no credentials) and show it. */
export const PUBLIC_DATA = { "Access-Control-Allow-Origin": "*", "Cross-Origin-Resource-Policy": "cross-origin" };
const CACHE_CONTROL = "public, max-age=60";
const MAX_PREPARED = 500;
/** JSON kept at most, in characters (the compressed forms add less than half again): pages of 1,000 products are about 0.5 MB each. */
const MAX_PREPARED_CHARS = 48 * 1024 * 1024;
const COMPRESS_FROM_BYTES = 1024;
/** Distinct Accept-Encoding headers remembered with the encoding they get (browsers send a handful). */
const MAX_ACCEPT_HEADERS = 100;

/** What a route makes of the product list: the JSON's value, and headers of its own (a page's links). */
export interface Made {
  body: unknown;
  headers?: Record<string, string>;
}

function sendable({ json, etag, headers: own }: Pick<Prepared, "json" | "etag" | "headers">, encoding: Encoding): ReadyAnswer {
  const body = new Uint8Array(
    encoding === "br"
      ? brotliCompressSync(json, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } })
      : encoding === "gzip"
        ? gzipSync(json, { level: 9 })
        : Buffer.from(json),
  );
  const headers: Record<string, string> = { ...PUBLIC_DATA, ...own, "Content-Type": "application/json", ETag: etag, "Cache-Control": CACHE_CONTROL, Vary: "Accept-Encoding" };
  if (encoding !== "identity") headers["Content-Encoding"] = encoding;
  headers["Content-Length"] = String(body.byteLength);
  return { status: 200, headers, body: [body] };
}

function made(source: readonly ListedProduct[], route: string, { body, headers = {} }: Made): Prepared {
  const json = JSON.stringify(body);
  // The answer's own headers count in its ETag: the same products with other links are another answer.
  const own = Object.keys(headers).length > 0 ? `\n${JSON.stringify(headers)}` : "";
  const etag = `"${createHash("sha1").update(json + own).digest("base64url")}"`;
  const notModified: ReadyAnswer = { status: 304, headers: { ...PUBLIC_DATA, ...headers, ETag: etag, "Cache-Control": CACHE_CONTROL, Vary: "Accept-Encoding" }, body: null };
  return { source, route, json, headers, etag, forms: {}, notModified };
}

/**
 * The catalogue API's answers, made once per address (path and query as sent) and product list:
 * the JSON, its ETag, each compressed form and the 304 with every header of their own. The Hono
 * routes (catalogue/routes.ts) make them after validating the request; the pipeline in front of
 * Hono (catalogueInFront in routes.ts) serves an address that has one straight from node:http. One set of
 * answers, two doors: both send exactly what is here.
 */
export class PreparedAnswers {
  private readonly prepared = new Map<string, Prepared>();
  private readonly encodings = new Map<string, Encoding>();
  /** Characters of JSON in `prepared`. */
  private chars = 0;

  /** `maxChars`: the JSON kept at most before every answer is made again (tests set a small one). */
  constructor(private readonly maxChars = MAX_PREPARED_CHARS) {}

  /** Whether `key` has an answer (maybe stale): only then is it tried in front of Hono. */
  has(key: string): boolean {
    return this.prepared.has(key);
  }

  /** The route pattern and answer for `key` if one was made from `products`, else null. */
  find(key: string, products: readonly ListedProduct[], ifNoneMatch: string | undefined, acceptEncoding: string | undefined): { route: string; answer: ReadyAnswer } | null {
    const entry = this.prepared.get(key);
    return entry && entry.source === products ? { route: entry.route, answer: this.reply(entry, ifNoneMatch, acceptEncoding) } : null;
  }

  /** The answer for `key`, made from `products` with `build` unless it already was. */
  async answer(
    key: string,
    route: string,
    products: readonly ListedProduct[],
    build: (products: readonly ListedProduct[]) => Promise<Made>,
    ifNoneMatch: string | undefined,
    acceptEncoding: string | undefined,
  ): Promise<ReadyAnswer> {
    const found = this.prepared.get(key);
    if (found && found.source === products) return this.reply(found, ifNoneMatch, acceptEncoding);
    const entry = made(products, route, await build(products));
    // Read again: another request may have made one for `key` while this one was read.
    const kept = this.prepared.get(key);
    if (kept) this.chars -= kept.json.length;
    if (this.prepared.size >= MAX_PREPARED || this.chars + entry.json.length > this.maxChars) this.clear();
    this.prepared.set(key, entry);
    this.chars += entry.json.length;
    return this.reply(entry, ifNoneMatch, acceptEncoding);
  }

  /** How many answers are kept, and their JSON's characters (tests). */
  get size(): { answers: number; chars: number } {
    return { answers: this.prepared.size, chars: this.chars };
  }

  private clear(): void {
    this.prepared.clear();
    this.chars = 0;
  }

  private reply(entry: Prepared, ifNoneMatch: string | undefined, acceptEncoding: string | undefined): ReadyAnswer {
    if (ifNoneMatch === entry.etag) return entry.notModified;
    const encoding = entry.json.length >= COMPRESS_FROM_BYTES ? this.encodingFor(acceptEncoding) : "identity";
    return (entry.forms[encoding] ??= sendable(entry, encoding));
  }

  private encodingFor(accept: string | undefined): Encoding {
    const key = accept ?? "";
    let encoding = this.encodings.get(key);
    if (encoding === undefined) {
      encoding = preferredEncoding(accept, ["br", "gzip"] as const) ?? "identity";
      if (this.encodings.size >= MAX_ACCEPT_HEADERS) this.encodings.clear();
      this.encodings.set(key, encoding);
    }
    return encoding;
  }
}
