import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * `c.json` that states the answer's length. Hono's compress leaves a body under 1 KB alone only
 * when it knows its size, and `c.json` does not say it: without this, every small API answer (a
 * payment's, an error's) went through a gzip stream that costs more than it saves.
 */
export function jsonResponse(c: Context, value: unknown, status: ContentfulStatusCode = 200, headers: Record<string, string> = {}): Response {
  const text = JSON.stringify(value);
  return c.body(text, status, { ...headers, "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(text)) });
}
