import { type HandleDataRequestFunction, type HandleErrorFunction, isRouteErrorResponse } from "react-router";

type Refusal = { status: 400 | 415; message: string };

/** The requests whose action could not read the posted form: answered with their refusal, not a 500 page. */
const refused = new WeakMap<Request, Refusal>();

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];
/** What `request.formData()` (the runtime's fetch) throws for a body that is not a form of a type it reads. */
const FORM_FAILURE = /^(?:Failed to parse body as FormData|Content-Type was not one of)/;

/**
 * A page action's `request.formData()` failing on what the client sent: a body that does not say
 * it is a form (415), or says so and is not one (a broken multipart boundary, JSON: 400). Any
 * other error is the page's own.
 */
export function unreadableForm(error: unknown, request: Request): Refusal | null {
  if (!(error instanceof TypeError) || !FORM_FAILURE.test(error.message) || request.method === "GET" || request.method === "HEAD") return null;
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  return FORM_TYPES.includes(type)
    ? { status: 400, message: "The request body is not a readable form." }
    : { status: 415, message: "The form must be sent as application/x-www-form-urlencoded or multipart/form-data." };
}

/**
 * React Router's error hook, for every error a loader, action or render throws. A form the action
 * could not read is the client's mistake: a warning, and the request is answered with its 4xx
 * (refusedForm). React Router's own 4xx are warnings too; anything else is logged as an error,
 * unless the client has gone.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  const where = { method: request.method, path: new URL(request.url).pathname };
  const refusal = unreadableForm(error, request);
  if (refusal) {
    refused.set(request, refusal);
    context.log.warn({ ...where, status: refusal.status, reason: refusal.message }, "malformed request body");
    return;
  }
  if (request.signal.aborted) return;
  // React Router's own 4xx (a POST to a page without an action: 405) come with the error behind them.
  if (isRouteErrorResponse(error) && error.status < 500) context.log.warn({ ...where, status: error.status }, "page request refused");
  else context.log.error({ ...where, err: error }, "page error");
};

/** The answer for a request whose form could not be read (JSON, as the API's errors), or null. */
export function refusedForm(request: Request): Response | null {
  const refusal = refused.get(request);
  return refusal ? Response.json({ error: refusal.message }, { status: refusal.status }) : null;
}

/** A page's data request (`.data`, the hydrated page's form post) whose form could not be read gets its 4xx too. */
export const handleDataRequest: HandleDataRequestFunction = (response, { request }) => refusedForm(request) ?? response;
