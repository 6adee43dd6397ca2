import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { CATALOGUE_FILE_BYTES } from "../admin/catalogue-file.ts";
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
 * And a catalogue file, at most CATALOGUE_FILE_BYTES and a form's few lines around it, imported by
 * the back office's import page or its API; it is read as it arrives, never held whole.
 */
export const CATALOGUE_BODY_BYTES = CATALOGUE_FILE_BYTES + 64 * 1024;
const CATALOGUE_PATH = /^\/(?:api\/admin\/products\/import|admin\/products\/import(?:\.data)?)$/;

/** The most a body may be on `path`. */
const maxBodyOn = (path: string, otherwise: number): number => (UPLOAD_PATH.test(path) ? UPLOAD_BODY_BYTES : CATALOGUE_PATH.test(path) ? CATALOGUE_BODY_BYTES : otherwise);

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
 * 413 for a body over MAX_BODY_BYTES (more on a picture's or a catalogue file's path), whatever the
 * path (page form posts as well as /api), before anything reads it: by its Content-Length when it
 * states one, else by counting as it streams (Hono's bodyLimit).
 */
export function bodyLimitStep(maxBytes = MAX_BODY_BYTES): MiddlewareHandler<AppEnv> {
  const limits = new Map([maxBytes, UPLOAD_BODY_BYTES, CATALOGUE_BODY_BYTES].map((max) => [max, bodyLimit({ maxSize: max, onError: tooLarge })]));
  return (c, next) => {
    // GET and HEAD carry no body; asking would make the adapter build a full Request for nothing.
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    const max = maxBodyOn(c.req.path, maxBytes);
    // A stated length is checked from the header alone: Hono's bodyLimit would first ask for the
    // request's body, which makes the adapter build the full web Request and its stream.
    const stated = statedBodyLength(c.req.method, (name) => c.req.header(name));
    if (stated === null) return limits.get(max)!(c, next);
    return stated > max ? tooLarge() : next();
  };
}
