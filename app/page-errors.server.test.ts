import { createRequestHandler, type ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { memoryLogger } from "../test/support/logger.ts";
import * as entry from "./entry.server.tsx";
import type { StorefrontContext } from "../server/load-context.ts";

// A page action reads its form with request.formData(); what it throws on a body that is no form
// is the client's mistake: a 4xx with a message and a warning, never the error page's 500.

const ORIGIN = "http://localhost:3000";

/** React Router's handler over one route whose action reads the form, with the shop's entry. */
function page(action: ((request: Request) => Promise<unknown>) | null) {
  const build = {
    entry: { module: entry },
    routes: { root: { id: "root", path: "", module: { ...(action && { action: ({ request }: { request: Request }) => action(request) }), default: () => null } } },
    assets: { entry: { module: "/entry.js", imports: [] }, routes: { root: { id: "root", path: "", module: "/root.js", hasAction: action !== null, hasLoader: false } }, url: "/manifest.js", version: "1" },
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: { v8_passThroughRequests: true, v8_middleware: false },
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "initial" },
    basename: "/",
    allowedActionOrigins: false,
  } as unknown as ServerBuild;
  const handle = createRequestHandler(build, "production");
  const { log, records } = memoryLogger();
  const send = (path: string, type: string | null, body: BodyInit) =>
    handle(new Request(`${ORIGIN}${path}`, { method: "POST", headers: { origin: ORIGIN, ...(type === null ? {} : { "content-type": type }) }, body }), {
      log,
    } as unknown as StorefrontContext);
  return { send, records };
}

const JUNK: Array<[type: string | null, body: string, status: number]> = [
  ["multipart/form-data; boundary=abc", '--abc\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n--zzz', 400],
  ["multipart/form-data", "a=1", 400],
  ["multipart/form-data; boundary=abc", '{"email":"ada@example.com"}', 400],
  ["multipart/form-data; boundary=abc", "", 400],
  ["text/plain", "email=ada", 415],
  ["application/json", '{"email":"ada@example.com"}', 415],
  [null, "email=ada", 415],
];

describe("a page action given a body that is no form", () => {
  it.each(JUNK)("answers %s with %s: its 4xx and message, logged as a warning", async (type, body, status) => {
    const { send, records } = page(async (request) => ({ fields: [...(await request.formData()).keys()] }));
    for (const path of ["/", "/_root.data"]) {
      const response = await send(path, type, body);
      expect([path, response.status]).toEqual([path, status]);
      expect(await response.json()).toEqual({
        error: status === 415 ? "The form must be sent as application/x-www-form-urlencoded or multipart/form-data." : "The request body is not a readable form.",
      });
    }
    expect(records.map((r) => [r.level, r.msg, r.status])).toEqual([
      [40, "malformed request body", status],
      [40, "malformed request body", status],
    ]);
  });

  it("still reads a form, and percent-encoding it cannot decode is kept as it came", async () => {
    const { send, records } = page(async (request) => {
      throw new Response(JSON.stringify(Object.fromEntries(await request.formData())), { status: 422 });
    });
    const response = await send("/_root.data", "application/x-www-form-urlencoded", "a=%zz&b=1");
    expect(response.status).toBe(422);
    expect(records).toEqual([]);
  });

  it("answers a post to a page without an action 405, logged as a warning", async () => {
    const { send, records } = page(null);
    const response = await send("/_root.data", "application/x-www-form-urlencoded", "a=1");
    expect(response.status).toBe(405);
    expect(records.map((r) => [r.level, r.msg, r.status])).toEqual([[40, "page request refused", 405]]);
  });

  it("leaves the action's own errors as they were: a 500, logged as an error", async () => {
    const { send, records } = page(async (request) => {
      await request.formData();
      throw new TypeError("Cannot read properties of undefined");
    });
    const response = await send("/_root.data", "application/x-www-form-urlencoded", "a=1");
    expect(response.status).toBe(500);
    expect(records.map((r) => [r.level, r.msg])).toEqual([[50, "page error"]]);
  });
});
