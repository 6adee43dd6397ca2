import { Writable } from "node:stream";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import type { AppLoadContext, EntryContext } from "react-router";
import { ServerRouter } from "react-router";
import { withWholeBody } from "../lib/whole-body.ts";
import { DocumentContext } from "./document.ts";
import { settleHydrationData } from "./hydration-data.server.ts";
import { documentBytes, STYLESHEET_SLOT } from "./document-bytes.server.ts";
import { refusedForm } from "./page-errors.server.ts";
import { stylesheet } from "./styles.server.ts";

export const streamTimeout = 5_000;
// How errors are logged, and a form an action could not read answered with a 4xx (page-errors.server.ts).
export { handleDataRequest, handleError } from "./page-errors.server.ts";

/** What React writes for a Suspense boundary it gave up on and left to the browser. */
const CLIENT_RENDERED_BOUNDARY = "<!--$!-->";
/** The stylesheet, encoded once: each page is rendered with a slot for it (document-bytes.server.ts). */
const STYLESHEET = Buffer.from(stylesheet);

/**
 * Renders the whole document and answers it as one buffer with its length. Our loaders return
 * complete data (none defers a promise), so the document is ready the moment its shell is:
 * streaming gained nothing and cost a Node stream, a web stream and a gzip stream per page. Whole,
 * it is compressed in one call (server/http/compression.ts), and crawlers get what people get.
 *
 * The document is rendered in one synchronous pass (`renderToString`): React Router's hydration
 * data (its turbo-stream, complete before the render since nothing is deferred) is read first and
 * handed to its `StreamTransfer` as already read, so nothing suspends. That saves the streaming
 * renderer's Suspense round trips, its byte chunks and the Node stream they went through (about a
 * fifth of an uncached page's CPU: docs/BENCHMARKS.md). A page that does suspend (deferred data, a
 * lazy component) comes out with a boundary left to the browser: it is rendered again by the
 * streaming renderer, which waits for everything.
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // The action could not read the posted form: its 4xx, not the error page's 500.
  const refused = refusedForm(request);
  if (refused) return refused;
  const nonce = loadContext.cspNonce || undefined;
  if (await settleHydrationData(routerContext)) {
    const html = renderToString(document(request, routerContext, nonce));
    if (!html.includes(CLIENT_RENDERED_BOUNDARY)) {
      // The streaming renderer starts a document whose root is <html> with a doctype; renderToString does not.
      return answer(Buffer.from(html), html.startsWith("<html"), responseStatusCode, responseHeaders);
    }
    // Rendered again by the streaming renderer; the hydration data stays settled for it.
  }
  return streamWhole(request, responseStatusCode, responseHeaders, routerContext, loadContext, nonce);
}

function document(request: Request, routerContext: EntryContext, nonce: string | undefined) {
  return (
    <DocumentContext.Provider value={{ nonce, stylesheet: STYLESHEET_SLOT }}>
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
    </DocumentContext.Provider>
  );
}

function answer(html: Buffer, doctype: boolean, status: number, headers: Headers): Response {
  const body = documentBytes(html, { stylesheet: STYLESHEET, doctype });
  headers.set("Content-Type", "text/html; charset=utf-8");
  headers.set("Content-Length", String(body.length));
  // A view of the same bytes (a Buffer's memory is an ArrayBuffer, never shared, here).
  const bytes = new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.length);
  return withWholeBody(new Response(bytes, { headers, status }), bytes);
}

/** The streaming renderer, collected whole: for a page that suspends on something still pending. */
function streamWhole(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
  nonce: string | undefined,
) {
  return new Promise<Response>((resolve, reject) => {
    let shellReady = false;
    const chunks: Uint8Array[] = [];
    const sink = new Writable({
      write(chunk: Uint8Array, _encoding, done) {
        chunks.push(chunk);
        done();
      },
      final(done) {
        resolve(answer(Buffer.concat(chunks), false, responseStatusCode, responseHeaders));
        done();
      },
    });
    // A render still waiting after this is cut off. The timer holds the whole render (its tree and
    // data), so it is cleared the moment the render is done: left to run out, it kept every page of
    // the last six seconds in memory (about 25 KB each, 70-100 MB under load).
    const cutOff = setTimeout(() => abort(), streamTimeout + 1_000);
    const { pipe, abort } = renderToPipeableStream(document(request, routerContext, nonce), {
      nonce,
      onShellReady() {
        shellReady = true;
      },
      onAllReady() {
        clearTimeout(cutOff);
        pipe(sink);
      },
      onShellError(error: unknown) {
        clearTimeout(cutOff);
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        // An error in the shell rejects (onShellError), and React Router logs it.
        if (shellReady) loadContext.log.error({ err: error }, "render error");
      },
    });
  });
}
