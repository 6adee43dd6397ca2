import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { PreparedAnswers } from "../catalogue/prepared-answers.ts";
import type { Product } from "../catalogue/product.ts";
import type { Logger } from "../log.ts";
import type { RequestObserver } from "../observability/request-observer.ts";
import type { SessionUser } from "../auth/auth.ts";
import type { PageCache, PersonalShells } from "../page-cache/index.ts";
import { isFilePath, MANIFEST_PATH } from "./paths.ts";
import { newNonce, type SecurityHeaderSet } from "./security-headers.ts";
import { byteLength, type SharedAnswer } from "./written-answer.ts";

export type { SharedAnswer };

export interface SharedAnswersDeps {
  log: Logger;
  observer: Pick<RequestObserver, "observe" | "addressRoute">;
  security: SecurityHeaderSet;
  /** The catalogue API's prepared answers, and the catalogue's current list they must be made from. */
  catalogue?: { list(): Promise<Product[]>; answers: PreparedAnswers };
  /** The anonymous page cache, and what tells a session cookie (a signed-in visitor never gets a shared page). */
  pages?: { cache: PageCache; hasSessionCookie(headers: Headers): boolean };
  /**
   * Signed-in visitors' pages from the personal shells already kept: which addresses come from a
   * shell (the routes' declarations: page-cache/shell-routes.ts), and whose a cookie header is when this process has already verified it.
   */
  shells?: { personal: PersonalShells; fromShell(path: string): boolean; knownUser(cookies: string): SessionUser | null };
}

const CATALOGUE_API = "/api/catalogue/";

/**
 * The shared-answers step (docs/ARCHITECTURE.md): in front of the Hono app, on node:http itself, it
 * gives the answers that are the same for every anonymous GET and already made: the catalogue API's
 * prepared answers and the page cache's hits. Building Hono's Request, Context and Response and
 * running its middleware chain cost more than such an answer itself; this step does for them
 * exactly what that chain does (request id, span, metrics and log line through the same
 * RequestObserver; the same security headers with a fresh nonce, spliced into the page; the
 * encoding the request takes; the 304 for a matching If-None-Match; HEAD) from the same prepared
 * answers the Hono routes send, and nothing else. Anything it does not hold (a first request, a
 * stale answer, a session cookie, a request with a body, any other address or method) goes to Hono
 * untouched.
 */
export function withSharedAnswers(deps: SharedAnswersDeps, hono: RequestListener): RequestListener {
  const { observer, catalogue, pages, shells } = deps;
  const send = answerSender(deps);

  const catalogueAnswer = (req: IncomingMessage, res: ServerResponse, url: string, started: number) => {
    catalogue!.list().then(
      (products) => {
        const found = catalogue!.answers.find(url, products, single(req.headers["if-none-match"]), single(req.headers["accept-encoding"]));
        // Made from an older list: the route makes it again.
        if (!found) return hono(req, res);
        send(req, res, started, found.route, found.answer, newNonce());
      },
      // The catalogue is away: the route says so (502).
      () => hono(req, res),
    );
  };

  const pageAnswer = (req: IncomingMessage, res: ServerResponse, url: string, started: number) => {
    const nonce = newNonce();
    const answer = pages!.cache.lookup(url, nonce, single(req.headers["accept-encoding"]))!;
    send(req, res, started, observer.addressRoute(pathOf(url)), answer, nonce);
  };

  const sharedPage = (req: IncomingMessage, url: string): boolean => {
    if (!pages || req.method !== "GET" || !pages.cache.has(url)) return false;
    const path = pathOf(url);
    // The page cache never keeps a back-office page (server/pages.ts): only the guard's view of
    // route discovery is left to route around, so discovery always goes through Hono.
    if (path === MANIFEST_PATH) return false;
    const cookie = req.headers.cookie;
    return !cookie || !pages.hasSessionCookie(new Headers({ cookie }));
  };

  /**
   * A signed-in visitor's page from its kept shell, when the request's cookies are a session this
   * process has already verified and not seen end: exactly what the Hono route gives them (no
   * cookie to renew, nothing rendered). True when it answered.
   */
  const shellAnswer = (req: IncomingMessage, res: ServerResponse, url: string, started: number): boolean => {
    const cookie = req.headers.cookie;
    if (!shells || req.method !== "GET" || !cookie) return false;
    const path = pathOf(url);
    // A file's address never carries the user (the session step skips it): Hono serves it.
    if (!shells.fromShell(path) || isFilePath(path)) return false;
    const user = shells.knownUser(cookie);
    if (!user) return false;
    const nonce = newNonce();
    const answer = shells.personal.kept(url, user, nonce, single(req.headers["accept-encoding"]));
    if (!answer) return false;
    send(req, res, started, observer.addressRoute(path), answer, nonce, user.uid);
    return true;
  };

  return (req, res) => {
    const started = performance.now();
    // The request as sent is the key: the Hono side keeps answers by the same path and query (a
    // path it would normalise differently is simply not found here and goes to Hono).
    const url = req.url ?? "";
    if ((req.method !== "GET" && req.method !== "HEAD") || hasBody(req)) return hono(req, res);
    if (catalogue && url.startsWith(CATALOGUE_API) && catalogue.answers.has(url)) return catalogueAnswer(req, res, url, started);
    // A verified session's cookie is looked up as it is, before any cookie is parsed for the shared page's check.
    if (shellAnswer(req, res, url, started)) return;
    if (sharedPage(req, url)) return pageAnswer(req, res, url, started);
    return hono(req, res);
  };
}

/** Writes a shared answer as the Hono chain would: observed, with the security headers and this response's nonce. */
function answerSender({ log, observer, security }: Pick<SharedAnswersDeps, "log" | "observer" | "security">) {
  /** Each answer's headers plus the security headers it does not set itself, as node:http's flat list. */
  const headerLists = new WeakMap<Record<string, string>, string[]>();

  const headerList = (answer: SharedAnswer): string[] => {
    let list = headerLists.get(answer.headers);
    if (!list) {
      const own = new Set(Object.keys(answer.headers).map((name) => name.toLowerCase()));
      list = Object.entries(answer.headers).flat();
      for (const [name, value] of security.fixed) if (!own.has(name.toLowerCase())) list.push(name, value);
      headerLists.set(answer.headers, list);
    }
    return list;
  };

  const send = (req: IncomingMessage, res: ServerResponse, started: number, route: string, answer: SharedAnswer, nonce: string, userId?: string) => {
    // Nothing here should throw (the answers are made and checked once); if it ever does, the
    // request fails alone, as Hono's adapter would make it, instead of the process.
    const failed = (error: unknown) => {
      log.error({ err: error }, "shared answer failed");
      res.destroy();
    };
    try {
      observer.observe(req, started, route, (requestId) => {
        const headers = [...headerList(answer), "X-Request-Id", requestId, "Content-Security-Policy", security.policy(nonce)];
        if (answer.body && !("Content-Length" in answer.headers)) headers.push("Content-Length", String(byteLength(answer.body)));
        // HEAD and 304 send no body: node:http drops it (and keeps the Content-Length, as Hono's adapter does).
        // The pieces written in one turn go out in one system call (node:http corks the socket until the next tick).
        res.writeHead(answer.status, headers);
        const pieces = answer.body ?? [];
        for (let i = 0; i < pieces.length - 1; i++) res.write(pieces[i]);
        res.end(pieces.at(-1));
        return answer.status;
      }, userId);
    } catch (error) {
      failed(error);
    }
  };
  return send;
}

/** A request that says it has a body takes the pipeline's body limit: Hono's. */
const hasBody = (req: IncomingMessage): boolean => req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined;

const pathOf = (url: string): string => {
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
};

const single = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);
