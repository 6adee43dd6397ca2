/**
 * A response whose body is already whole in memory (a rendered page: app/entry.server.tsx) carries
 * its bytes under this key, so a later step (compression) takes them as they are instead of
 * turning the response into a full web Response and reading its body stream back into memory.
 * `Symbol.for`, because the app's bundle and the server's each have their own copy of this module.
 */
const WHOLE_BODY = Symbol.for("storefront.whole-body");

type WithWholeBody = Response & { [WHOLE_BODY]?: Uint8Array<ArrayBuffer> };

/** `response`, marked as having exactly `body` as its body. */
export function withWholeBody(response: Response, body: Uint8Array<ArrayBuffer>): Response {
  Object.defineProperty(response, WHOLE_BODY, { value: body });
  return response;
}

/** The body of a response marked by withWholeBody; undefined for any other. */
export function wholeBody(response: Response): Uint8Array<ArrayBuffer> | undefined {
  return (response as WithWholeBody)[WHOLE_BODY];
}
