import type { Role } from "./staff.ts";

/** The signed-in shopper as the app sees them (spec section 3): uid and email, and the role. */
export interface SessionUser {
  uid: string;
  email: string;
  /** From the session; the back office re-reads it from the database before it lets anyone in. */
  role: Role;
}

/** What a sign-in, registration or sign-out gives the page that asked for it. */
export type AuthResult =
  | { ok: true; user: SessionUser | null; setCookies: string[] }
  | { ok: false; status: number; message: string };
