import { randomBytes } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import type { InFront } from "../pipeline/step.ts";
import type { AppEnv } from "./env.ts";

/** Stands in a directive's source list where each response's own nonce goes (no real source contains it). */
export const NONCE = "\u0000nonce\u0000";

export type CspDirectives = Record<string, string[]>;

/** Headers every response carries unless its route set its own (e.g. the public catalogue's CORP). */
const FIXED_HEADERS: Array<[string, string]> = [
  ["Cross-Origin-Opener-Policy", "same-origin"],
  ["Cross-Origin-Resource-Policy", "same-origin"],
  ["Origin-Agent-Cluster", "?1"],
  ["Referrer-Policy", "strict-origin-when-cross-origin"],
  ["X-Content-Type-Options", "nosniff"],
  ["X-DNS-Prefetch-Control", "off"],
  ["X-Download-Options", "noopen"],
  ["X-Frame-Options", "DENY"],
  ["X-Permitted-Cross-Domain-Policies", "none"],
  ["X-XSS-Protection", "0"],
];

/**
 * What of those still means something on a built script (`/assets/*.js`, fetched by a page, never
 * shown as one): the rest, and the CSP, govern documents only, and on the first load's few scripts
 * they were about half a kilobyte of headers each.
 */
const SCRIPT_HEADERS = new Set(["Cross-Origin-Resource-Policy", "Referrer-Policy", "X-Content-Type-Options", "Strict-Transport-Security"]);
const BUILT_SCRIPT = /^\/assets\/[^/]+\.js$/;

const kebabCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

const NONCE_BYTES = 16;
let pool = Buffer.alloc(0);
let offset = 0;

/** 128 random bits, base64: drawn from a pool filled 256 nonces at a time (one system call, not one per response). */
export function newNonce(): string {
  if (offset + NONCE_BYTES > pool.length) {
    pool = randomBytes(NONCE_BYTES * 256);
    offset = 0;
  }
  offset += NONCE_BYTES;
  return pool.toString("base64", offset - NONCE_BYTES, offset);
}

/** The security headers of every response: built once, each response only joins its nonce into the policy. */
export interface SecurityHeaderSet {
  /** The headers that are the same on every response (HSTS among them where the site is https). */
  readonly fixed: ReadonlyArray<readonly [string, string]>;
  /** Of those, the ones a built script carries (no CSP either). */
  readonly forScripts: ReadonlyArray<readonly [string, string]>;
  /** The Content-Security-Policy with `nonce` where each response's nonce goes. */
  policy(nonce: string): string;
}

export function securityHeaderSet({ csp, hsts }: { csp: CspDirectives; hsts: string | false }): SecurityHeaderSet {
  // The policy is text pieces between the nonces, joined with each response's nonce.
  const pieces = Object.entries(csp)
    .map(([directive, sources]) => [kebabCase(directive), ...sources].join(" "))
    .join("; ")
    .split(NONCE);
  const fixed: Array<[string, string]> = hsts ? [...FIXED_HEADERS, ["Strict-Transport-Security", hsts]] : FIXED_HEADERS;
  const forScripts = fixed.filter(([name]) => SCRIPT_HEADERS.has(name));
  return { fixed, forScripts, policy: (nonce) => pieces.join(`'nonce-${nonce}'`) };
}

/**
 * The security headers of every response, with a fresh CSP nonce per request (`cspNonce`, which
 * the pages put on their scripts). On node:http they are the response's defaults (see below);
 * elsewhere they are written onto the finished response directly: going through `c.header()` after
 * the handler would make Hono copy the response once per header. Answers given in front of Hono
 * get the same set from `securityHeadersInFront`.
 */
export function securityHeaders(set: SecurityHeaderSet): MiddlewareHandler<AppEnv> {
  const { fixed, forScripts } = set;
  const documentOnly = [...fixed.map(([name]) => name).filter((name) => !SCRIPT_HEADERS.has(name)), "Content-Security-Policy"];
  return async (c, next) => {
    const nonce = newNonce();
    c.set("cspNonce", nonce);
    const policy = set.policy(nonce);
    const outgoing = c.env?.outgoing;
    if (outgoing && !outgoing.headersSent) {
      // On node:http they go onto the socket's response as defaults: the headers the response is
      // written with (writeHead) take precedence, so a route's own choice stands, and no Headers
      // object is touched (each Headers.set validates and re-sorts: most of this step's cost).
      for (const [name, value] of fixed) outgoing.setHeader(name, value);
      outgoing.setHeader("Content-Security-Policy", policy);
      if (!BUILT_SCRIPT.test(c.req.path)) return next();
      await next();
      if (isScript(c.res)) for (const name of documentOnly) outgoing.removeHeader(name);
      return;
    }
    // Elsewhere (app.request in tests, other runtimes) they are written onto the finished response.
    await next();
    let headers = c.res.headers;
    if (!trySet(headers, "X-Content-Type-Options", "nosniff")) {
      // Response.redirect() and fetch() answers have read-only headers: those few are copied.
      c.res = new Response(c.res.body, c.res);
      headers = c.res.headers;
    }
    const script = BUILT_SCRIPT.test(c.req.path) && isScript(c.res);
    for (const [name, value] of script ? forScripts : fixed) if (!headers.has(name)) headers.set(name, value);
    if (!script && !headers.has("Content-Security-Policy")) headers.set("Content-Security-Policy", policy);
  };
}

/** A built script as served (a missing one gets the shop's page, with every header). */
function isScript(response: Response): boolean {
  return response.status === 200 && (response.headers.get("content-type") ?? "").startsWith("text/javascript");
}

/** Sets a header; false when the headers are read-only (a Headers object says so only by throwing). */
function trySet(headers: Headers, name: string, value: string): boolean {
  try {
    headers.set(name, value);
    return true;
  } catch {
    return false;
  }
}

/**
 * The security headers of an answer given in front of Hono (pipeline/ready-answers.ts): the same
 * set, those the answer does not set itself, and the policy with the nonce its page was made with.
 */
export function securityHeadersInFront(set: SecurityHeaderSet): InFront {
  /** Per answer's headers: the fixed ones it does not set itself, as node:http's flat list. */
  const missing = new WeakMap<Record<string, string>, string[]>();
  const missingFrom = (own: Record<string, string>): string[] => {
    let list = missing.get(own);
    if (!list) {
      const names = new Set(Object.keys(own).map((name) => name.toLowerCase()));
      list = set.fixed.filter(([name]) => !names.has(name.toLowerCase())).flat();
      missing.set(own, list);
    }
    return list;
  };
  return {
    wraps: (write) => (visit, res, found, headers) => {
      for (const value of missingFrom(found.answer.headers)) headers.push(value);
      headers.push("Content-Security-Policy", set.policy(found.nonce));
      write(visit, res, found, headers);
    },
  };
}
