import { groupThousands } from "../lib/numbers.ts";

/** Spec section 1: the name in the header's "Hello {name}" is the part of the email before the @. */
export const displayName = (email: string): string => email.split("@")[0] ?? email;

// Made once, when first needed: `toLocaleString("en-US")` builds a new number format on every call.
let numbers: Intl.NumberFormat | undefined;

/**
 * A count as people read it: 1,234 (as `Intl.NumberFormat("en-US")` writes it). Whole numbers are
 * written out by hand: a page's first Intl formatter loads the browser's locale data, tens of
 * milliseconds on a slow phone while the page starts.
 */
export function formatCount(n: number): string {
  if (Number.isSafeInteger(n) && !Object.is(n, -0)) return (n < 0 ? "-" : "") + groupThousands(Math.abs(n));
  numbers ??= new Intl.NumberFormat("en-US");
  return numbers.format(n);
}

/** "1 item", "3 items". */
export const itemCount = (n: number): string => `${n} ${n === 1 ? "item" : "items"}`;

/** The text cut to at most `max` characters at a word boundary, with an ellipsis when cut. */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max + 1);
  const end = cut.lastIndexOf(" ");
  return `${(end > 0 ? cut.slice(0, end) : text.slice(0, max)).replace(/[\s,.;:]+$/, "")}…`;
}
