import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import type { AppLoadContext, EntryContext } from "react-router";
import { ServerRouter } from "react-router";
import { DocumentContext } from "./document.ts";
import { withoutModulePreloads } from "./module-preloads.server.ts";
import { stylesheet } from "./styles.server.ts";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce || undefined;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    // Crawlers get the whole document at once; people get the shell as soon as it is ready.
    const userAgent = request.headers.get("user-agent");
    const waitForAll = Boolean(userAgent && isbot(userAgent)) || routerContext.isSpaMode;
    const sendDocument = () => {
      shellRendered = true;
      const body = withoutModulePreloads();
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
      pipe(body);
    };
    // A render still streaming after this is cut off. The timer holds the whole render (its tree,
    // data and stream), so it is cleared the moment the render is done: left to run out, it kept
    // every page of the last six seconds in memory (about 25 KB each, 70-100 MB under load).
    const cutOff = setTimeout(() => abort(), streamTimeout + 1_000);
    const { pipe, abort } = renderToPipeableStream(
      <DocumentContext.Provider value={{ nonce, stylesheet }}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </DocumentContext.Provider>,
      {
        nonce,
        onShellReady() {
          if (!waitForAll) sendDocument();
        },
        onAllReady() {
          clearTimeout(cutOff);
          if (waitForAll) sendDocument();
        },
        onShellError(error: unknown) {
          clearTimeout(cutOff);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) loadContext.log.error({ err: error }, "render error");
        },
      },
    );
  });
}
