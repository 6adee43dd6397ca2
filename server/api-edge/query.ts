import { z } from "zod";
import { HttpError } from "../http-error.ts";

/**
 * A `limit` query parameter: a whole number from 1 to `max`, with one message for every way it
 * can be wrong (what the /api routes answer with 400).
 */
export function limitParam(max: number) {
  const message = `limit must be a whole number from 1 to ${max}`;
  return z.coerce.number({ error: message }).int(message).min(1, message).max(max, message);
}

/** The request's query parsed by `schema`; a 400 with the first problem's message when it does not fit. */
export function queryParams<T extends z.ZodType>(c: { req: { query(): Record<string, string> } }, schema: T): z.infer<T> {
  const parsed = schema.safeParse(c.req.query());
  if (!parsed.success) throw new HttpError(400, parsed.error.issues[0]!.message);
  return parsed.data;
}
