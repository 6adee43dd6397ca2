import type { Context } from "hono";
import { type AdminContext, adminContext, type AdminSettings } from "./admin/context.ts";
import type { BuildRoutes } from "./routing/build-routes.ts";
import type { AuthResult, SessionUser } from "./auth/auth.ts";
import { type CatalogueForPages, catalogueForPages } from "./catalogue/pages.ts";
import type { AppEnv } from "./http/env.ts";
import type { Logger } from "./log.ts";
import type { SearchService } from "./search/service.ts";
import type { FirstOrdersPage } from "./orders/service.ts";
import type { CheckoutMode } from "./payments/gateway.ts";
import type { Services } from "./services.ts";

/** Account actions as a page's action calls them: bound to this request's client and cookies. */
export interface AccountActions {
  signIn(email: string, password: string): Promise<AuthResult>;
  signUp(email: string, password: string): Promise<AuthResult>;
  signOut(): Promise<AuthResult>;
  /** /auth/forgot: always the same message when accepted (no account enumeration); 429 when rate-limited. */
  requestPasswordReset(email: string): Promise<{ ok: true; message: string } | { ok: false; status: number; message: string }>;
  /** /auth/reset: whether the link can still be used, and what to say when it cannot. */
  checkResetLink(token: string): Promise<{ ok: true } | { ok: false; message: string }>;
  /** /auth/reset: sets the password, revokes every session, signs this browser in. */
  resetPassword(token: string, password: string): Promise<AuthResult>;
}

/**
 * What the server hands React Router's loaders and actions, in-process. A type alias rather than
 * an interface, so it fits React Router's index-signature AppLoadContext. Services here answer
 * results or fallbacks, never the server's own error classes (which the app bundle cannot see).
 */
export type StorefrontContext = {
  catalogue: CatalogueForPages;
  account: AccountActions;
  /** The signed-in shopper's orders, newest first. */
  orders: { firstPage(userId: string, limit: number): Promise<FirstOrdersPage> };
  /** How the checkout page takes the card. */
  checkout: CheckoutMode;
  /** The signed-in shopper, resolved once per request from the session cookie; null when signed out. */
  user: SessionUser | null;
  log: Logger;
  /** Product search: the /search page's loader calls it in-process. */
  search: SearchService;
  /** The shop's public origin, for absolute links (e.g. in structured data). */
  publicUrl: string;
  /** This response's Content-Security-Policy nonce, for the inline hydration scripts. */
  cspNonce: string;
  /** The back office, for a verified admin on a back-office page only (server/admin/gate.ts); null otherwise. */
  admin: AdminContext | null;
};

export type SsrHandler = (request: Request, context: StorefrontContext) => Promise<Response>;

/** React Router's request handler, and the route table it matches addresses on (for the back office's guard). */
export interface PageRenderer {
  handle: SsrHandler;
  /** The build's routes: fixed in production, the current ones in development. */
  routes(): Promise<BuildRoutes>;
}

/**
 * Returns `createLoadContext(c)`: what is the same for every request is built here once, what
 * belongs to this request (user, client, cookies, nonce) per call.
 */
export function loadContextFactory(services: Services, log: Logger, publicUrl: string, adminSettings?: AdminSettings) {
  const catalogue = catalogueForPages(services.catalogue, log);
  const orders = { firstPage: (userId: string, limit: number) => services.orders.firstPage(userId, limit) };
  /** `staff`: the admin the back office's guard let in, on a back-office page only. */
  return function createLoadContext(c: Context<AppEnv>, staff: SessionUser | null = null): StorefrontContext {
    const clientIp = c.get("clientIp");
    const headers = c.req.raw.headers;
    return {
      catalogue,
      account: {
        signIn: (email, password) => services.auth.signIn(email, password, clientIp, c.get("user") ? headers : undefined),
        signUp: (email, password) => services.auth.signUp(email, password, clientIp),
        signOut: () => services.auth.signOut(headers, clientIp),
        requestPasswordReset: (email) => services.auth.passwordReset.request(email, clientIp),
        checkResetLink: (token) => services.auth.passwordReset.check(token),
        resetPassword: (token, password) => services.auth.passwordReset.reset(token, password, clientIp),
      },
      orders,
      checkout: services.checkout,
      search: services.search,
      user: c.get("user"),
      log,
      publicUrl,
      cspNonce: c.get("cspNonce"),
      admin: staff ? adminContext(services, staff, adminSettings) : null,
    };
  };
}
