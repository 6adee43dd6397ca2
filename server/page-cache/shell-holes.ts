import { randomInt } from "node:crypto";
import type { SessionUser } from "../auth/auth.ts";
import type { Role } from "../admin/staff.ts";
import { htmlText, hydrationString } from "./shell-escape.ts";

/**
 * A personal shell: a page rendered for a placeholder user instead of the signed-in one, cut at
 * the placeholder's values and at the response's nonce, so that it holds no user's data and can
 * be filled per request. A signed-in page differs from the anonymous one only by the user (the
 * header's account block, the root loader's data), so the filled shell is what a full render for
 * that user gives.
 */

/** What a hole takes: the response's nonce, or one of the user's strings. */
export type ShellField = "nonce" | "uid" | "name" | "domain";

/** Where a hole sits: page markup (text or attribute), or React Router's hydration script. */
type Place = "html" | "script";

export interface ShellHole {
  field: ShellField;
  place: Place;
}

/** The page between its holes, and what goes in each hole. */
export interface CutShell {
  parts: string[];
  holes: ShellHole[];
}

/**
 * The placeholder's strings, per process: a random 12-digit mark no page shows by chance, in
 * mixed case with spaces, so that a page that shows a user's value transformed (upper-cased,
 * URL-encoded, ...) rather than as it is leaves the mark behind in the text, and is not cut.
 */
const MARK = String(randomInt(100_000_000_000, 999_999_999_999));
const PLACEHOLDER = { uid: `Shell Uid ${MARK}`, name: `Shell Name ${MARK}`, domain: `Shell Domain ${MARK}` } as const;
/** The placeholders as they appear in markup and in the hydration script (all ASCII letters, digits, spaces: no escape changes them). */
const USER_TOKENS: ReadonlyMap<string, Exclude<ShellField, "nonce">> = new Map(
  (Object.entries(PLACEHOLDER) as Array<[Exclude<ShellField, "nonce">, string]>).map(([field, token]) => [token, field]),
);

/**
 * The user a shell is rendered for: the real one's role (the header shows "Admin" to admins), and
 * placeholders for every string. Typed as the session's user, so a field added to it must be
 * given a placeholder here (and a hole in `fills`) before it compiles.
 */
export const placeholderUser = (role: Role): SessionUser => ({ uid: PLACEHOLDER.uid, email: `${PLACEHOLDER.name}@${PLACEHOLDER.domain}`, role });

/** The text React Router's hydration scripts start with: the only scripts a user's value may be in. */
const HYDRATION_SCRIPT = "window.__reactRouterContext";

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * `html` (rendered for the placeholder user with `nonce`) cut at every placeholder and nonce, or
 * null when it cannot be filled safely: a placeholder inside a <style> or a script of the page's
 * own, or the mark left over where a page transformed a value.
 */
export function cutShell(html: string, nonce: string): CutShell | null {
  if (nonce === "") return null;
  const tokens = new RegExp([nonce, ...USER_TOKENS.keys()].map(escapeRegExp).join("|"), "g");
  const parts: string[] = [];
  const holes: ShellHole[] = [];
  let from = 0;
  for (const match of html.matchAll(tokens)) {
    const field = match[0] === nonce ? "nonce" : USER_TOKENS.get(match[0])!;
    const place = field === "nonce" ? "html" : placeAt(html, match.index);
    if (!place) return null;
    parts.push(html.slice(from, match.index));
    holes.push({ field, place });
    from = match.index + match[0].length;
  }
  parts.push(html.slice(from));
  return parts.some((part) => part.includes(MARK)) ? null : { parts, holes };
}

/** Whether `index` is in markup or in a hydration script; null for any other script or style. */
function placeAt(html: string, index: number): Place | null {
  const script = html.lastIndexOf("<script", index);
  if (script > html.lastIndexOf("</script", index)) {
    const body = html.indexOf(">", script) + 1;
    return body > 0 && body <= index && html.startsWith(HYDRATION_SCRIPT, body) ? "script" : null;
  }
  const style = html.lastIndexOf("<style", index);
  return style > html.lastIndexOf("</style", index) ? null : "html";
}

/**
 * What goes in each of `holes` for `user` and this response's `nonce`, escaped for its place; null
 * when the user's email has no name before an "@" (the header shows that name: the shell's
 * placeholder has one, so such a page would not be the same).
 */
export function fills(holes: readonly ShellHole[], user: SessionUser, nonce: string): string[] | null {
  const escaped = escapedValues(user);
  return escaped && holes.map(({ field, place }) => (field === "nonce" ? nonce : escaped[place][field]));
}

type Escaped = Record<Place, Record<Exclude<ShellField, "nonce">, string>>;

/**
 * A user's values escaped for each place, kept with the user object the session cache hands every
 * request of that session (so a busy shopper's pages do not escape the same strings again), and
 * gone with it.
 */
const escapedByUser = new WeakMap<SessionUser, Escaped | null>();

function escapedValues(user: SessionUser): Escaped | null {
  let escaped = escapedByUser.get(user);
  if (escaped === undefined) {
    const at = user.email.indexOf("@");
    const values = { uid: user.uid, name: user.email.slice(0, at), domain: user.email.slice(at + 1) };
    const each = (escape: (value: string) => string) => ({ uid: escape(values.uid), name: escape(values.name), domain: escape(values.domain) });
    escaped = at <= 0 ? null : { html: each(htmlText), script: each(hydrationString) };
    escapedByUser.set(user, escaped);
  }
  return escaped;
}

/** The placeholders' mark, for tests that check no shell keeps a placeholder where it is shown. */
export const SHELL_MARK = MARK;
