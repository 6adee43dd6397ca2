/**
 * "Add to cart" tapped before the app has hydrated would do nothing: the basket is client state,
 * and a slow phone shows the page well before its script has run. A few bytes of inline script in
 * the head (EARLY_TAPS_SCRIPT) keep those taps, and each card with the button adds what was tapped
 * for it once the app has taken over. Once `<html data-hydrated>` is set, React has the clicks.
 */
const QUEUE = "__storefrontEarlyAdds";
/** Set on a button tapped early; the card takes it off once it has added what was tapped. */
export const TAPPED = "data-tapped-early";
/**
 * Set on a button whose card has taken over (added its early taps): its clicks go to the app even
 * while other parts of the page are still to be hydrated (HydrateLater.tsx), so none is kept for a
 * card that has already looked.
 */
export const LIVE = "data-live";

export const EARLY_TAPS_SCRIPT =
  `(function(){var q=window.${QUEUE}=[];document.addEventListener("click",function(e){` +
  `if(document.documentElement.hasAttribute("data-hydrated"))return;` +
  `var b=e.target&&e.target.closest&&e.target.closest("[data-add-to-basket]");if(!b||b.hasAttribute("${LIVE}"))return;` +
  // Kept from React's own listeners too, should they be attached before the card has taken it.
  `e.stopImmediatePropagation();q.push(b.getAttribute("data-add-to-basket"));` +
  // Seen at once (a tick on the button, ProductCard.css), so nobody taps again for want of a sign.
  `b.setAttribute("${TAPPED}","")},true)})()`;

/** How many early taps there were on this product's button; they are taken, so each counts once. */
export function takeEarlyTaps(productId: number): number {
  const queue: unknown = (window as unknown as Record<string, unknown>)[QUEUE];
  if (!Array.isArray(queue)) return 0;
  const before = queue.length;
  const rest = queue.filter((id) => id !== String(productId));
  queue.splice(0, queue.length, ...rest);
  return before - rest.length;
}
