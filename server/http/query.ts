import { z } from "zod";

/**
 * A `limit` query parameter: a whole number from 1 to `max`, with one message for every way it
 * can be wrong (what the /api routes answer with 400).
 */
export function limitParam(max: number) {
  const message = `limit must be a whole number from 1 to ${max}`;
  return z.coerce.number({ error: message }).int(message).min(1, message).max(max, message);
}
