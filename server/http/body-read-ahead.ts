import type { IncomingMessage, RequestListener } from "node:http";
import type { Context } from "hono";
import { MAX_BODY_BYTES, statedBodyLength } from "./body-limit.ts";

/** @hono/node-server's contract for a body already read: it makes the request's body of this buffer. */
type ReadAhead = IncomingMessage & { rawBody?: Buffer };

/**
 * Reads each request body that states its length, within the body limit (MAX_BODY_BYTES), before
 * the app runs, into the IncomingMessage's `rawBody`. @hono/node-server then makes the web
 * request's body of that buffer, not of the socket through `Readable.toWeb` (a web stream, its
 * controller and transferable set-up per request), and `bodyText` reads it as it is. Anything
 * else (no stated length, or over the limit) goes on untouched: the body limit counts or refuses
 * it as before. A body cut off by the client goes on unread, so the app fails it as it always has.
 */
export function withSmallBodies(next: RequestListener): RequestListener {
  return (req, res) => {
    const length = statedBodyLength(req.method, (name) => req.headers[name] as string | undefined);
    if (length === null || length > MAX_BODY_BYTES) return next(req, res);
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.once("end", () => {
      (req as ReadAhead).rawBody = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      next(req, res);
    });
    req.once("error", () => next(req, res));
  };
}

const utf8 = new TextDecoder();

/** The request body as text: the buffer read ahead (withSmallBodies) when there is one, else the request's own stream. */
export function bodyText(c: Context): Promise<string> {
  const read = (c.env as { incoming?: ReadAhead } | undefined)?.incoming?.rawBody;
  // TextDecoder drops a leading byte order mark, as Request.text() does.
  return read instanceof Buffer ? Promise.resolve(utf8.decode(read)) : c.req.text();
}
