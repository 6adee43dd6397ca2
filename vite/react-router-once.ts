import type { Plugin } from "vite";

/**
 * React Router 7.18.4 (pinned) builds three things again for every document it renders that are
 * the same for every render of a process, from the same build: the server routes of its
 * `ServerRouter` (`createServerRoutes` over the whole route manifest), the data routes its
 * `createStaticRouter` converts them to, and, in `<Scripts>`, the partial route manifest (every
 * route the address and its parent paths match) as pretty-printed JSON. Together about a tenth of
 * an uncached page's CPU (docs/BENCHMARKS.md). This plugin makes each one once, in the server
 * bundle only (the browser runs `<Scripts>` once per page), by rewriting those three calls in React
 * Router's production files as the bundle is built:
 *
 * - the server routes, kept per route manifest object (`build.assets.routes`, one per build) and
 *   SPA mode;
 * - the data routes, kept per server routes object (so per manifest too);
 * - the partial manifest's JSON, kept per manifest for the matched route ids and the address's
 *   parent paths: all that it is computed from besides the process's own routes.
 *
 * Each is a pure function of its key, so the document's bytes are unchanged
 * (server/render.integration.test.ts).
 *
 * Two more rewrites spare each data answer (`/orders.data`, a single fetch) the web-stream
 * machinery between React Router and our compression: `isResponse` no longer turns the
 * lightweight Response into a full web one, and the single fetch's turbo-stream body is kept on
 * its Response (lib/whole-body.ts, `bodyStream`), so compression reads it straight instead of
 * through a web Response's `arrayBuffer()`. Its bytes are the same (server/http/compression.test.ts).
 *
 * Three more put the document's hydration data (React Router's turbo-stream of the loaders' data,
 * read whole before the render by app/hydration-data.server.ts) on a light stream of its own
 * (LIGHT_STREAM) instead of a web ReadableStream; the single fetch's data answers keep theirs.
 *
 * One more leaves out of the server's <Scripts> the module preloads every document has cut from its
 * head since (app/document-bytes.server.ts): the bytes are the same, without making them first.
 *
 * Four more keep what the document path works out again per request from the same inputs: the
 * matches of an address (each document matches its address twice, walking every route branch),
 * the handoff JSON and the route modules table of a build, and whether this is a build-time request
 * (an environment variable read for the request and each loader).
 *
 * If React Router's code differs from what is rewritten here (another version), the build fails
 * rather than silently rendering without the rewrite.
 */
/**
 * What turbo-stream's encode needs of a ReadableStream, and React Router's ServerRouter and
 * app/hydration-data.server.ts of its reader: `start(controller)` called at once with `enqueue`,
 * `close` and `error` (a rejected start errors it, one that throws at once throws); `getReader()` any number of times, whose
 * `read()` gives the chunks in order, then `{ done: true }`, or rejects once errored;
 * `releaseLock()`. Without a web stream's queues, strategies, promises and transfer machinery
 * per page.
 */
export const LIGHT_STREAM = `
class StorefrontLightStream {
  #chunks = [];
  #waiting = [];
  #closed = false;
  #failed = false;
  #error = undefined;
  constructor({ start }) {
    let controller = {
      enqueue: (chunk) => {
        if (this.#closed || this.#failed) throw new TypeError("Invalid state: the stream is closed");
        if (this.#waiting.length > 0) this.#waiting.shift().resolve({ done: false, value: chunk });
        else this.#chunks.push(chunk);
      },
      close: () => {
        if (this.#closed || this.#failed) throw new TypeError("Invalid state: the stream is closed");
        this.#closed = true;
        for (let read of this.#waiting.splice(0)) read.resolve({ done: true, value: undefined });
      },
      error: (error) => this.#fail(error),
    };
    // A start that throws at once throws here, as a ReadableStream's constructor does.
    Promise.resolve(start(controller)).catch((error) => this.#fail(error));
  }
  get locked() {
    return false;
  }
  #fail(error) {
    if (this.#closed || this.#failed) return;
    this.#failed = true;
    this.#error = error;
    this.#chunks = [];
    for (let read of this.#waiting.splice(0)) read.reject(error);
  }
  #read() {
    if (this.#chunks.length > 0) return Promise.resolve({ done: false, value: this.#chunks.shift() });
    if (this.#failed) return Promise.reject(this.#error);
    if (this.#closed) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve, reject) => this.#waiting.push({ resolve, reject }));
  }
  getReader() {
    return { read: () => this.#read(), releaseLock() {}, cancel: () => Promise.resolve() };
  }
}
`;

interface Rewrite {
  /** What it saves, for the build's error message. */
  name: string;
  /** The exact text in React Router's production files, found once. */
  find: string;
  replace: string;
  /** Code the replacement calls, added once to the file it is applied in (ONCE when absent). */
  helper?: string | string[];
}

/** Added to each rewritten file: what is made once, per owner object and key. */
export const ONCE = `
var storefrontKept = new WeakMap();
function storefrontOnce(owner, key, make) {
  let kept = storefrontKept.get(owner);
  if (!kept) storefrontKept.set(owner, (kept = new Map()));
  let value = kept.get(key);
  if (value === undefined) {
    // Some keys follow addresses (partial manifests, route matches): a bounded number is kept.
    if (kept.size >= 256) kept.clear();
    value = make();
    kept.set(key, value);
  }
  return value;
}
`;

export const REWRITES: Rewrite[] = [
  {
    name: "ServerRouter's server routes",
    find: `  let routes = createServerRoutes(
    manifest.routes,
    routeModules,
    context.future,
    context.isSpaMode
  );`,
    replace: `  let routes = storefrontOnce(manifest.routes, context.isSpaMode ? "spa" : "ssr", () =>
    createServerRoutes(manifest.routes, routeModules, context.future, context.isSpaMode)
  );`,
  },
  {
    name: "createStaticRouter's data routes",
    find: `function createStaticRouter(routes, context, opts = {}) {
  let manifest = {};
  let dataRoutes = convertRoutesToDataRoutes(
    routes,
    mapRouteProperties,
    void 0,
    manifest
  );`,
    replace: `function createStaticRouter(routes, context, opts = {}) {
  let { manifest, dataRoutes } = storefrontOnce(routes, "data routes", () => {
    let manifest = {};
    return { manifest, dataRoutes: convertRoutesToDataRoutes(routes, mapRouteProperties, void 0, manifest) };
  });`,
  },
  {
    name: "the partial manifest of <Scripts>",
    find: `JSON.stringify(
        getPartialManifest(manifest, router),
        null,
        2
      )`,
    replace: `storefrontOnce(
        manifest,
        JSON.stringify([router.state.matches.map((match) => match.route.id), router.state.location.pathname.split("/").filter(Boolean).slice(0, -1)]),
        () => JSON.stringify(getPartialManifest(manifest, router), null, 2)
      )`,
  },
  {
    name: "isResponse without building the web Response",
    find: `function isResponse(value) {
  return value != null && typeof value.status === "number" && typeof value.statusText === "string" && typeof value.headers === "object" && typeof value.body !== "undefined";
}`,
    // The same answer for every value: a Response always passes the checks after `||`. Only
    // their `statusText` and `body` turn @hono/node-server's lightweight Response (the global
    // `Response` under node:http) into a full web Response, for every data answer.
    replace: `function isResponse(value) {
  return value instanceof Response || value != null && typeof value.status === "number" && typeof value.statusText === "string" && typeof value.headers === "object" && typeof value.body !== "undefined";
}`,
    helper: "",
  },
  {
    name: "single fetch's body stream, kept on its Response",
    find: `  return new Response(
    encodeViaTurboStream(
      result,
      request.signal,
      build.entry.module.streamTimeout,
      serverMode
    ),
    {
      status: status || 200,
      headers: resultHeaders
    }
  );`,
    replace: `  let body = encodeViaTurboStream(result, request.signal, build.entry.module.streamTimeout, serverMode);
  return storefrontWithBodyStream(new Response(body, { status: status || 200, headers: resultHeaders }), body);`,
    helper: `
function storefrontWithBodyStream(response, body) {
  Object.defineProperty(response, Symbol.for("storefront.body-stream"), { value: body });
  return response;
}
`,
  },
  {
    name: "<Scripts> without module preloads",
    // The document's <link rel="modulepreload"> tags are cut from every page's head
    // (app/document-bytes.server.ts: the page paints before its hydration code loads); made
    // anyway, they cost the modules' hrefs worked out, an element each and React hoisting each
    // into the head, for every render. The browser's <Scripts> keeps them (app/entry.client.tsx).
    find: `  let preloads = isHydrated || isRSCRouterContext ? [] : [
    // Dedupe through a Set
    ...new Set(
      manifest.entry.imports.concat(
        getModuleLinkHrefs(matches, manifest, {
          includeHydrateFallback: true
        })
      )
    )
  ];
  let sri = typeof manifest.sri === "object" ? manifest.sri : {};
  warnOnce(
    !isRSCRouterContext,
    "The <Scripts /> element is a no-op when using RSC and can be safely removed."
  );
  return isHydrated || isRSCRouterContext ? null : /* @__PURE__ */ React8.createElement(React8.Fragment, null, typeof manifest.sri === "object" ? /* @__PURE__ */ React8.createElement(
    "script",
    {
      ...scriptProps,
      "rr-importmap": "",
      type: "importmap",
      suppressHydrationWarning: true,
      dangerouslySetInnerHTML: {
        __html: JSON.stringify({
          integrity: sri
        })
      }
    }
  ) : null, !enableFogOfWar ? /* @__PURE__ */ React8.createElement(
    "link",
    {
      rel: "modulepreload",
      href: manifest.url,
      crossOrigin: scriptProps.crossOrigin,
      integrity: sri[manifest.url],
      nonce: scriptProps.nonce,
      suppressHydrationWarning: true
    }
  ) : null, /* @__PURE__ */ React8.createElement(
    "link",
    {
      rel: "modulepreload",
      href: manifest.entry.module,
      crossOrigin: scriptProps.crossOrigin,
      integrity: sri[manifest.entry.module],
      nonce: scriptProps.nonce,
      suppressHydrationWarning: true
    }
  ), preloads.map((path) => /* @__PURE__ */ React8.createElement(
    "link",
    {
      key: path,
      rel: "modulepreload",
      href: path,
      crossOrigin: scriptProps.crossOrigin,
      integrity: sri[path],
      nonce: scriptProps.nonce,
      suppressHydrationWarning: true
    }
  )), initialScripts);
}`,
    replace: `  let sri = typeof manifest.sri === "object" ? manifest.sri : {};
  warnOnce(
    !isRSCRouterContext,
    "The <Scripts /> element is a no-op when using RSC and can be safely removed."
  );
  return isHydrated || isRSCRouterContext ? null : /* @__PURE__ */ React8.createElement(React8.Fragment, null, typeof manifest.sri === "object" ? /* @__PURE__ */ React8.createElement(
    "script",
    {
      ...scriptProps,
      "rr-importmap": "",
      type: "importmap",
      suppressHydrationWarning: true,
      dangerouslySetInnerHTML: {
        __html: JSON.stringify({
          integrity: sri
        })
      }
    }
  ) : null, initialScripts);
}`,
    helper: "",
  },
  {
    name: "the document's hydration data on a light stream",
    // Read whole by app/hydration-data.server.ts before the render, and by nothing else: it need
    // not be a web ReadableStream (about 4% of an uncached page's CPU to build and read).
    find: `      serverHandoffStream: encodeViaTurboStream(
        state,
        request.signal,
        build.entry.module.streamTimeout,
        serverMode
      ),
      renderMeta: {},`,
    replace: `      serverHandoffStream: encodeViaTurboStream(state, request.signal, build.entry.module.streamTimeout, serverMode, true),
      renderMeta: {},`,
    helper: "",
  },
  {
    name: "encodeViaTurboStream's choice of stream",
    find: `function encodeViaTurboStream(data2, requestSignal, streamTimeout, serverMode) {`,
    replace: `function encodeViaTurboStream(data2, requestSignal, streamTimeout, serverMode, storefrontLight = false) {`,
    helper: "",
  },
  {
    name: "encodeViaTurboStream's choice passed to encode",
    find: `  return encode(data2, {
    signal: controller.signal,`,
    replace: `  return encode(data2, {
    storefrontLight,
    signal: controller.signal,`,
    helper: "",
  },
  {
    name: "turbo-stream's encode on a light stream when asked",
    find: `  const readable = new ReadableStream({
    async start(controller) {
      const id = await flatten.call(encoder, input);`,
    replace: `  const readable = new (options?.storefrontLight ? StorefrontLightStream : ReadableStream)({
    async start(controller) {
      const id = await flatten.call(encoder, input);`,
    helper: LIGHT_STREAM,
  },
  {
    name: "route matching once per address",
    // Every document matches its address twice (the request handler, then the static handler's
    // query), each time walking every route branch from the root (about 5% of an uncached page's
    // CPU). The matches of an address are a pure function of the routes, the address's pathname,
    // the basename and allowPartial: kept per routes (or ranked branches) object, and each caller
    // gets its own copies (their params objects are shared between a result's matches, as made).
    find: `function matchRoutesImpl(routes, locationArg, basename, allowPartial, precomputedBranches) {`,
    replace: `function matchRoutesImpl(routes, locationArg, basename, allowPartial, precomputedBranches) {
  let pathname = typeof locationArg === "string" ? locationArg : locationArg.pathname;
  if (typeof pathname !== "string" || typeof locationArg === "string" && /[?#]/.test(locationArg)) {
    return storefrontMatchRoutes(routes, locationArg, basename, allowPartial, precomputedBranches);
  }
  let kept = storefrontOnce(precomputedBranches ?? routes, \`\${allowPartial ? 1 : 0}\${basename ?? ""}\\0\${pathname}\`, () => ({
    matches: storefrontMatchRoutes(routes, pathname, basename, allowPartial, precomputedBranches)
  }));
  return storefrontCopyMatches(kept.matches);
}
function storefrontMatchRoutes(routes, locationArg, basename, allowPartial, precomputedBranches) {`,
    helper: [
      ONCE,
      `
function storefrontCopyMatches(matches) {
  if (!matches) return null;
  let copies = new Map();
  return matches.map((match) => {
    let params = copies.get(match.params);
    if (!params) copies.set(match.params, (params = { ...match.params }));
    return { ...match, params };
  });
}
`,
    ],
  },
  {
    name: "the document's handoff JSON once",
    // The same for every document of a build (its basename, future flags, route discovery, ssr),
    // but for SPA mode and the critical CSS.
    find: `      serverHandoffString: createServerHandoffString({
        ...baseServerHandoff,
        criticalCss
      }),`,
    replace: `      serverHandoffString: storefrontOnce(build, JSON.stringify(["handoff", isSpaMode2, criticalCss ?? null]), () => createServerHandoffString({
        ...baseServerHandoff,
        criticalCss
      })),`,
  },
  {
    name: "the document's route modules once",
    // Route id to module, from the build's routes: nothing on the server adds to it.
    find: `      routeModules: createEntryRouteModules(build.routes),`,
    replace: `      routeModules: storefrontOnce(build.routes, "entry route modules", () => createEntryRouteModules(build.routes)),`,
  },
  {
    name: "the build-time request flag read once",
    // React Router's prerendering (at build time) sets IS_RR_BUILD_REQUEST before it sends its
    // requests; a running shop never has it. Reading process.env (a call into C++) for each
    // request and each loader is read once, at the first request, instead.
    find: `function getBuildTimeHeader(request, headerName) {
  if (typeof process !== "undefined") {
    try {
      if (process.env.hasOwnProperty("IS_RR_BUILD_REQUEST") && process.env.IS_RR_BUILD_REQUEST === "yes") {
        return request.headers.get(headerName);
      }
    } catch (e) {
    }
  }
  return null;
}`,
    replace: `var storefrontBuildRequests;
function getBuildTimeHeader(request, headerName) {
  if (storefrontBuildRequests === void 0) {
    storefrontBuildRequests = false;
    if (typeof process !== "undefined") {
      try {
        storefrontBuildRequests = process.env.hasOwnProperty("IS_RR_BUILD_REQUEST") && process.env.IS_RR_BUILD_REQUEST === "yes";
      } catch (e) {
      }
    }
  }
  return storefrontBuildRequests ? request.headers.get(headerName) : null;
}`,
    helper: "",
  },
];

const PRODUCTION_FILE = /[\\/]react-router[\\/]dist[\\/]production[\\/][^\\/]+\.mjs$/;

/** `code` with every rewrite whose text it holds applied, and the names of those applied. */
export function rewrite(code: string): { code: string; applied: string[] } {
  const applied: string[] = [];
  for (const { name, find, replace } of REWRITES) {
    const at = code.indexOf(find);
    if (at < 0) continue;
    if (code.indexOf(find, at + 1) >= 0) throw new Error(`react-router-once: "${name}" is found twice in one file`);
    code = code.slice(0, at) + replace + code.slice(at + find.length);
    applied.push(name);
  }
  const helpers = new Set(REWRITES.filter(({ name }) => applied.includes(name)).flatMap(({ helper }) => helper ?? ONCE));
  return { code: applied.length > 0 ? code + [...helpers].join("") : code, applied };
}

/** The Vite plugin: the server bundle's React Router (production files) with REWRITES applied, each exactly once. */
export function reactRouterOnce(): Plugin {
  const applied = new Set<string>();
  return {
    name: "storefront:react-router-once",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "ssr",
    transform(code, id) {
      if (!PRODUCTION_FILE.test(id)) return null;
      const result = rewrite(code);
      for (const name of result.applied) {
        if (applied.has(name)) this.error(`react-router-once: "${name}" is found in two files`);
        applied.add(name);
      }
      return result.applied.length > 0 ? { code: result.code, map: null } : null;
    },
    buildEnd() {
      const missing = REWRITES.filter(({ name }) => !applied.has(name)).map(({ name }) => name);
      if (missing.length > 0) this.error(`react-router-once: React Router's code has changed, not found: ${missing.join("; ")} (see vite/react-router-once.ts)`);
    },
  };
}
