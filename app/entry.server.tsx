import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import type { AppLoadContext, EntryContext } from "react-router";
import { ServerRouter } from "react-router";
import { DocumentContext } from "./document.ts";
import { withoutModulePreloads } from "./module-preloads.server.ts";
import { stylesheet } from "./styles.server.ts";

export const streamTimeout = 5_000;

/**
 * Renders the whole document, then answers it as one buffer with its length. Our loaders return
 * complete data (none defers a promise), so the document is ready the moment its shell is:
 * streaming it gained nothing and cost a Node stream, a web stream and a gzip stream per page, each
 * passing React's 2 KB chunks one by one (about a third of an uncached page's CPU). Whole, it is
 * compressed in one call (server/http/compression.ts), and crawlers get what people get.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce || undefined;
  return new Promise<Response>((resolve, reject) => {
    let shellReady = false;
    const chunks: Uint8Array[] = [];
    const document = new Writable({
      write(chunk: Uint8Array, _encoding, done) {
        chunks.push(chunk);
        done();
      },
      final(done) {
        const body = withoutModulePreloads(Buffer.concat(chunks));
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        responseHeaders.set("Content-Length", String(body.length));
        // A view of the same bytes (a Buffer's memory is an ArrayBuffer, never shared, here).
        const bytes = new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.length);
        resolve(new Response(bytes, { headers: responseHeaders, status: responseStatusCode }));
        done();
      },
    });
    // A render still waiting after this is cut off. The timer holds the whole render (its tree and
    // data), so it is cleared the moment the render is done: left to run out, it kept every page of
    // the last six seconds in memory (about 25 KB each, 70-100 MB under load).
    const cutOff = setTimeout(() => abort(), streamTimeout + 1_000);
    const { pipe, abort } = renderToPipeableStream(
      <DocumentContext.Provider value={{ nonce, stylesheet }}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </DocumentContext.Provider>,
      {
        nonce,
        onShellReady() {
          shellReady = true;
        },
        onAllReady() {
          clearTimeout(cutOff);
          pipe(document);
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
      },
    );
  });
}
