import { promisify } from "node:util";
import { gzip } from "node:zlib";
import type { MiddlewareHandler } from "hono";
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from "hono/utils/compress";
import { wholeBody } from "../../lib/whole-body.ts";
import { gzipPage, gzipWhole } from "../gzip/page-gzip.ts";

/** Smaller answers cost more to compress than they save on the wire. */
const MIN_BYTES = 1024;
/** Up to this size one gzip call on the request's own thread is cheaper than a trip to the thread pool. */
const INLINE_UP_TO = 64 * 1024;
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;
const gzipInPool = promisify(gzip);

/**
 * The first of `offered` (in our order of preference) that an Accept-Encoding header takes, named
 * or through `*`, and does not refuse with q=0; null when it takes none of them.
 */
export function preferredEncoding<T extends string>(accept: string | undefined, offered: readonly T[]): T | null {
  if (!accept) return null;
  const taken = new Map<string, boolean>();
  for (const part of accept.split(",")) {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    if (coding) taken.set(coding.trim(), !params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param)));
  }
  return offered.find((coding) => taken.get(coding) ?? taken.get("*") ?? false) ?? null;
}

/** Distinct Accept-Encoding headers remembered (browsers and clients send a handful of them). */
const REMEMBERED = 100;
const takesGzip = new Map<string, boolean>();

/** Whether an Accept-Encoding header takes gzip: parsed once per distinct header (a cached page's hit asks on every request). */
export function acceptsGzip(accept: string | undefined): boolean {
  const key = accept ?? "";
  let gzip = takesGzip.get(key);
  if (gzip === undefined) {
    gzip = preferredEncoding(accept, ["gzip"]) !== null;
    if (takesGzip.size >= REMEMBERED) takesGzip.clear();
    takesGzip.set(key, gzip);
  }
  return gzip;
}

/**
 * gzip for the answers worth it, when the client takes it. An answer that streams (no length)
 * goes through a gzip stream. Every answer whose length is known (pages, JSON, React Router's data,
 * text) is already whole when its handler returns, so it is compressed in one call and sent with
 * its length: a web CompressionStream pipeline per answer cost more CPU than the compression
 * itself. Answers that are already encoded (precompressed files, the catalogue API, cached pages),
 * small, not text, or marked no-transform pass untouched.
 */
export function compression(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const { status, headers } = c.res;
    if (c.req.method === "HEAD" || status === 204 || status === 206 || status === 304) return;
    const type = headers.get("content-type");
    const length = headers.get("content-length");
    if (!type || !COMPRESSIBLE_CONTENT_TYPE_REGEX.test(type) || headers.has("content-encoding") || headers.has("transfer-encoding")) return;
    if ((length !== null && Number(length) < MIN_BYTES) || NO_TRANSFORM.test(headers.get("cache-control") ?? "")) return;
    const vary = headers.get("vary");
    if (vary !== "*" && !/(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(vary ?? "")) headers.set("Vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
    if (!acceptsGzip(c.req.header("accept-encoding"))) return;
    const whole = wholeBody(c.res);
    if (!whole && !c.res.body) return;

    // A page of unknown length streams through gzip; a page rendered whole (app/entry.server.tsx)
    // states its length and takes the one-call path below, with its bytes as they are.
    if (!whole && type.startsWith("text/html") && length === null) {
      c.res = new Response(c.res.body!.pipeThrough(new CompressionStream("gzip")), c.res);
      c.res.headers.delete("Content-Length");
    } else {
      const bytes = whole ?? new Uint8Array(await c.res.arrayBuffer());
      if (bytes.byteLength < MIN_BYTES) {
        if (!whole) {
          // Cleared first, as below.
          c.res = undefined;
          c.res = new Response(bytes, { status, headers });
        }
        return;
      }
      const inline = bytes.byteLength <= INLINE_UP_TO;
      const gzipped = inline && type.startsWith("text/html") ? gzipPage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)) : inline ? gzipWhole(bytes) : await gzipInPool(bytes);
      const body = new Uint8Array(gzipped.buffer as ArrayBuffer, gzipped.byteOffset, gzipped.byteLength);
      headers.set("Content-Length", String(body.byteLength));
      // The answer stays a lightweight Response written straight from its bytes. Cleared first:
      // Hono's setter would copy the old answer's headers (the very Headers given here) onto the
      // new one, making full web Responses of both and a body stream, which cost more than
      // compressing a page.
      c.res = undefined;
      c.res = new Response(body, { status, headers });
    }
    c.res.headers.set("Content-Encoding", "gzip");
    const etag = c.res.headers.get("ETag");
    if (etag && !etag.startsWith("W/")) c.res.headers.set("ETag", `W/${etag}`);
  };
}
