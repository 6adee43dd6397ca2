import type { Context } from "hono";
import { z } from "zod";
import { jsonBody, requireJsonType } from "./json-body.ts";

/**
 * What better-auth's endpoints take without checking it themselves: update-user takes any JSON
 * object and writes `name` and `image` as they come, so `{"name":null}` reached the database's
 * NOT NULL and answered 500. Other fields pass through to better-auth, which refuses its own.
 */
const CHECKED: Record<string, z.ZodType> = {
  "/update-user": z.looseObject({
    name: z.string({ error: "name must be a string" }).optional(),
    image: z.string({ error: "image must be a string or null" }).nullable().optional(),
  }),
};

/**
 * The request to hand better-auth for a call to /api/auth`path`: a write must be JSON (415
 * otherwise, as every JSON endpoint: better-auth also takes forms, which a page on another site
 * can post without asking first); where better-auth does not check a body (CHECKED), it is checked
 * here, 400 naming what is wrong. `headers` are the ones to send on. Reads go through as they are,
 * and so does a write with no body at all (sign-out needs none).
 */
export async function authRequest(c: Context, path: string, headers: Headers): Promise<Request> {
  const request = c.req.raw;
  if (request.method === "GET" || request.method === "HEAD" || withoutBody(c)) return new Request(request, { headers });
  requireJsonType(c);
  const schema = CHECKED[path];
  if (!schema) return new Request(request, { headers });
  const body = await jsonBody(c, schema);
  return new Request(request.url, { method: request.method, headers, body: JSON.stringify(body), signal: request.signal });
}

/** No Content-Type and nothing stated to follow (no length, or 0, and not chunked): a write that sends no body. */
function withoutBody(c: Context): boolean {
  if (c.req.header("content-type") !== undefined || c.req.header("transfer-encoding") !== undefined) return false;
  const length = c.req.header("content-length");
  return length === undefined || Number(length) === 0;
}
