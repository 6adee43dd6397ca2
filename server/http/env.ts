import type { HttpBindings } from "@hono/node-server";
import type { SessionUser } from "../auth/auth.ts";

/** The Hono environment of every request: node:http bindings and what the middleware resolves once. */
export type AppEnv = {
  Bindings: Partial<HttpBindings>;
  Variables: {
    /** This response's Content-Security-Policy nonce (see securityHeaders). */
    cspNonce: string;
    /** The client's address (see clientAddress). */
    clientIp: string;
    /** The session's user, or null: looked up only when the request carries a session cookie. */
    user: SessionUser | null;
  };
};
