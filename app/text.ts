/** Spec section 1: the name in the header's "Hello {name}" is the part of the email before the @. */
export const displayName = (email: string): string => email.split("@")[0] ?? email;

// Made once: `toLocaleString("en-US")` builds a new number format on every call (each card of each render).
const wholeNumbers = new Intl.NumberFormat("en-US");

/** A count as people read it: 1,234. */
export const formatCount = (n: number): string => wholeNumbers.format(n);

/** "1 item", "3 items". */
export const itemCount = (n: number): string => `${n} ${n === 1 ? "item" : "items"}`;

/** The text cut to at most `max` characters at a word boundary, with an ellipsis when cut. */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max + 1);
  const end = cut.lastIndexOf(" ");
  return `${(end > 0 ? cut.slice(0, end) : text.slice(0, max)).replace(/[\s,.;:]+$/, "")}…`;
}
