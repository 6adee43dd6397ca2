import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * `c.json` that states the answer's length, so that compression (./compression.ts) sees at once
 * that a small answer (a payment's, an error's) is not worth compressing.
 */
export function jsonResponse(c: Context, value: unknown, status: ContentfulStatusCode = 200, headers: Record<string, string> = {}): Response {
  const text = JSON.stringify(value);
  return c.body(text, status, { ...headers, "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(text)) });
}
