import { afterFirstPaint } from "./after-first-paint.server.ts";

const MODULE_PRELOAD = Buffer.from('<link rel="modulepreload"');
const TAG_END = Buffer.from("/>");
const HEAD_END = Buffer.from("</head>");
const DOCTYPE = Buffer.from("<!DOCTYPE html>");
/** How React writes the opening tag's end of <Scripts>' module script (its nonce comes before). */
const MODULE_SCRIPT = Buffer.from(' type="module" async="">');
const SCRIPT_END = Buffer.from("</script>");

/**
 * What the document is rendered with in place of the stylesheet's text (app/root.tsx puts it in
 * a <style> in the head): a comment, so no text a page shows can read the same (React writes `<`
 * of any text or attribute as `&lt;`), and its bytes are found in the rendered head.
 */
export const STYLESHEET_SLOT = "<!--storefront:stylesheet-->";
const SLOT = Buffer.from(STYLESHEET_SLOT);

export interface DocumentParts {
  /** The stylesheet's bytes, put where the head holds STYLESHEET_SLOT. */
  stylesheet?: Buffer;
  /** Starts the document with `<!DOCTYPE html>` (renderToString leaves it out; the streaming renderer writes it). */
  doctype?: boolean;
}

/**
 * The bytes a rendered document is answered with, copied once: the stylesheet in its slot, and
 * without React Router's <link rel="modulepreload"> tags, which React hoists into the head.
 *
 * The stylesheet (about 20 KB of a product page's 32) is the same for every page: rendered as a
 * slot and laid in as bytes encoded once, it is not copied through React's output string, that
 * string's flattening and its encoding for every page.
 *
 * The module preloads: with them, the ~100 KB of hydration code was fetched at high priority before
 * the page's own content and pictures were even parsed, sharing the network with the first paint
 * and the largest picture. Without them the same modules load as the document's closing script
 * imports them: the page paints first and hydrates a moment later.
 *
 * The route modules' script at the end of the body is made to import them once the page has
 * painted (after-first-paint.server.ts).
 *
 * All in bytes: the head is searched for the slot and the preloads, the body for that script alone.
 */
export function documentBytes(rendered: Buffer, { stylesheet, doctype = false }: DocumentParts = {}): Buffer {
  const headEnd = rendered.indexOf(HEAD_END);
  const pieces: Buffer[] = doctype ? [DOCTYPE] : [];
  let from = 0;
  if (headEnd >= 0) {
    // Searched in the head alone: the body's bytes are not read.
    const head = rendered.subarray(0, headEnd);
    const slot = stylesheet ? head.indexOf(SLOT) : -1;
    let slotDone = slot < 0;
    const lay = (until: number) => {
      if (!slotDone && slot < until) {
        pieces.push(rendered.subarray(from, slot), stylesheet!);
        from = slot + SLOT.length;
        slotDone = true;
      }
    };
    for (let start = head.indexOf(MODULE_PRELOAD); start >= 0; start = head.indexOf(MODULE_PRELOAD, from)) {
      const end = head.indexOf(TAG_END, start);
      if (end < 0) break;
      lay(start);
      pieces.push(rendered.subarray(from, start));
      from = end + TAG_END.length;
    }
    lay(headEnd);
  }
  const script = rendered.indexOf(MODULE_SCRIPT, Math.max(headEnd, from));
  const scriptEnd = script < 0 ? -1 : rendered.indexOf(SCRIPT_END, script);
  if (scriptEnd >= 0) {
    const textStart = script + MODULE_SCRIPT.length;
    pieces.push(rendered.subarray(from, textStart), Buffer.from(afterFirstPaint(rendered.toString("utf8", textStart, scriptEnd))));
    from = scriptEnd;
  }
  if (pieces.length === 0) return rendered;
  pieces.push(rendered.subarray(from));
  return Buffer.concat(pieces);
}
