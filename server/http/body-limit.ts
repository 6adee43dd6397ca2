import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HttpError } from "../http-error.ts";
import type { AppEnv } from "./env.ts";

/** The most any request body may be: the shop's forms and JSON bodies are a few kilobytes. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * 413 for a body over MAX_BODY_BYTES, whatever the path (page form posts as well as /api), before
 * anything reads it: by its Content-Length when it states one, else by counting as it streams.
 */
export function bodyLimitStep(maxBytes = MAX_BODY_BYTES): MiddlewareHandler<AppEnv> {
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new HttpError(413, "The request body is too large.");
    },
  });
  // GET and HEAD carry no body; asking would make the adapter build a full Request for nothing.
  return (c, next) => (c.req.method === "GET" || c.req.method === "HEAD" ? next() : limit(c, next));
}
