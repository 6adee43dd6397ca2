import type { ContentfulStatusCode } from "hono/utils/http-status";

/** An error with the status and message a client should see. */
export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
  ) {
    super(message);
  }
}
