import type { HttpBindings } from "@hono/node-server";
import type { SecureHeadersVariables } from "hono/secure-headers";
import type { SessionUser } from "../auth/auth.ts";

/** The Hono environment of every request: node:http bindings and what the middleware resolves once. */
export type AppEnv = {
  Bindings: Partial<HttpBindings>;
  Variables: SecureHeadersVariables & {
    /** The client's address (see clientAddress). */
    clientIp: string;
    /** The session's user, or null: looked up only when the request carries a session cookie. */
    user: SessionUser | null;
  };
};
