import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HttpError } from "../http-error.ts";
import type { AppEnv } from "./env.ts";

/** The most any request body may be: the shop's forms and JSON bodies are a few kilobytes. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * The one exception: a product picture (at most 5 MB, and a multipart form's few lines around
 * it), sent to its API address or by the back office's edit page (its form post and the same post
 * made by the hydrated page, `.data`). Only admins get past the gate to read it.
 */
export const UPLOAD_BODY_BYTES = 5 * 1024 * 1024 + 64 * 1024;
const UPLOAD_PATH = /^\/(?:api\/admin\/products\/\d{1,9}\/image|admin\/products\/\d{1,9}(?:\.data)?)$/;

/**
 * The length a request states for its body: null for GET and HEAD (no body), and for a body sent
 * in chunks or without a Content-Length (only counting as it streams can tell). `header` reads one
 * request header by its lower-case name. Used here and by the read-ahead (body-read-ahead.ts).
 */
export function statedBodyLength(method: string | undefined, header: (name: string) => string | undefined): number | null {
  if (method === "GET" || method === "HEAD" || header("transfer-encoding") !== undefined) return null;
  const length = header("content-length");
  return length === undefined ? null : Number(length);
}

const tooLarge = () => {
  throw new HttpError(413, "The request body is too large.");
};

/**
 * 413 for a body over MAX_BODY_BYTES (UPLOAD_BODY_BYTES on a picture upload's path), whatever the
 * path (page form posts as well as /api), before anything reads it: by its Content-Length when it
 * states one, else by counting as it streams (Hono's bodyLimit).
 */
export function bodyLimitStep(maxBytes = MAX_BODY_BYTES): MiddlewareHandler<AppEnv> {
  const limit = bodyLimit({ maxSize: maxBytes, onError: tooLarge });
  const upload = bodyLimit({ maxSize: UPLOAD_BODY_BYTES, onError: tooLarge });
  return (c, next) => {
    // GET and HEAD carry no body; asking would make the adapter build a full Request for nothing.
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    const isUpload = UPLOAD_PATH.test(c.req.path);
    // A stated length is checked from the header alone: Hono's bodyLimit would first ask for the
    // request's body, which makes the adapter build the full web Request and its stream.
    const stated = statedBodyLength(c.req.method, (name) => c.req.header(name));
    if (stated === null) return isUpload ? upload(c, next) : limit(c, next);
    return stated > (isUpload ? UPLOAD_BODY_BYTES : maxBytes) ? tooLarge() : next();
  };
}
