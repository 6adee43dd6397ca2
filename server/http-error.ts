import type { ContentfulStatusCode } from "hono/utils/http-status";

/** An error with the status and message a client should see (and any headers that go with it). */
export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** 429, with the standard Retry-After (seconds) every client and proxy understands. */
export class TooManyRequests extends HttpError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, message, { "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}

/** The 404 of an API address that does not exist (and of the back office's, to anyone but an admin). */
export const noApiEndpoint = (method: string, path: string): HttpError => new HttpError(404, noApiEndpointMessage(method, path));

/** What the API says of an address it has no endpoint for (404), or not for that method (405). */
export const noApiEndpointMessage = (method: string, path: string): string => `No API endpoint ${method} ${path}.`;
