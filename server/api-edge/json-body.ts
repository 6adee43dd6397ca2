import type { Context } from "hono";
import type { z } from "zod";
import { MalformedBody } from "./malformed-body.ts";
import { bodyText } from "../http/body-read-ahead.ts";

/**
 * The request's JSON body checked against `schema`, or a 400 naming what is wrong. Each route
 * reads its own body with this; nothing parses bodies globally, so raw bodies stay readable.
 * A body that does not say it is JSON is refused with 415 before it is read: `text/plain` (or a
 * form) is what a page on another site can send without asking first (no CORS preflight).
 */
export async function jsonBody<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  requireJsonType(c);
  let raw: unknown;
  try {
    raw = JSON.parse(await bodyText(c));
  } catch {
    throw new MalformedBody(400, "The request body is not valid JSON.");
  }
  const result = schema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const where = issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
    throw new MalformedBody(400, `${where}${issue.message}`);
  }
  return result.data;
}

/** 415 unless the request says its body is JSON; what jsonBody checks before it reads anything. */
export function requireJsonType(c: Context): void {
  const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json") throw new MalformedBody(415, "The request body must be JSON (Content-Type: application/json).");
}
