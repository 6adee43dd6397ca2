import { parseCookies } from "better-auth/cookies";
import type { SessionUser } from "./session-user.ts";
import { COOKIE_PREFIX } from "./better-auth.ts";

/** Whose cookie it is, and which session: a session revoked since is refused all the same (revocations.ts). */
export interface VerifiedSession {
  user: SessionUser;
  sessionId: string;
}

/**
 * Users of session cache cookies better-auth has already verified, until each cookie's own expiry:
 * a browser sends the same cookies with every request for up to a minute, and a repeat skips
 * better-auth's signature check (a WebCrypto key import and an HMAC per request). It accepts
 * exactly what better-auth's cookie cache accepts, for no longer; bounded, oldest dropped first.
 */
export class VerifiedSessions {
  private readonly entries = new Map<string, { session: VerifiedSession; until: number }>();

  constructor(private readonly max = 5_000) {}

  get(cookies: string): VerifiedSession | null {
    const entry = this.entries.get(cookies);
    if (!entry) return null;
    if (Date.now() < entry.until) return entry.session;
    this.entries.delete(cookies);
    return null;
  }

  set(cookies: string, session: VerifiedSession, until: number): void {
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(cookies, { session, until });
  }
}

/**
 * When the session cache cookie among `cookies` stops being accepted: the earlier of its own
 * expiry and its session's. Read from better-auth's compact encoding (base64url JSON); null when
 * there is no such cookie or it does not parse, and then nothing is remembered.
 */
export function sessionCacheExpiry(cookies: string): number | null {
  const name = `${COOKIE_PREFIX}.session_data`;
  const value = [...parseCookies(cookies)].find(([key]) => key === name || key === `__Secure-${name}`)?.[1];
  if (!value) return null;
  try {
    const payload = JSON.parse(Buffer.from(value, "base64url").toString("utf8")) as {
      expiresAt?: unknown;
      session?: { session?: { expiresAt?: unknown } };
    };
    const cache = payload.expiresAt;
    const session = new Date(payload.session?.session?.expiresAt as string).getTime();
    return typeof cache === "number" && Number.isFinite(session) ? Math.min(cache, session) : null;
  } catch {
    return null;
  }
}

