/** What every template gets besides its payload. */
export interface TemplateContext {
  /** The shop's public origin, for links (PUBLIC_URL). */
  publicUrl: string;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text made safe for HTML content and attribute values. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** Integer cents as the shop shows them: 123400 -> "$1,234.00" (the pages' own formatter). */
export { formatCents } from "../../../lib/basket.ts";

const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" });

/** "November 24, 2026 at 10:00 AM UTC": one zone for every reader, said out loud. */
export const formatDate = (epochMs: number): string => `${dateFormat.format(new Date(epochMs)).replace(/\s/g, " ")} UTC`;

/**
 * The HTML shell of every message: the shop's colours, inline styles only (mail clients drop
 * style sheets), and a width that reads on a phone. `body` is HTML the template has escaped.
 */
export function htmlDocument(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:0;background:#eaeded;font-family:Arial,Helvetica,sans-serif;color:#0f1111">
<div style="background:#131921;color:#ffffff;padding:12px 16px;font-size:20px;font-weight:700">Storefront</div>
<div style="max-width:600px;margin:16px auto;background:#ffffff;padding:16px 20px;line-height:1.5">
${body}
</div>
</body>
</html>
`;
}

/** A button-like link in the shop's primary yellow. */
export const htmlButton = (href: string, label: string): string =>
  `<p><a href="${escapeHtml(href)}" style="display:inline-block;background:#ffd814;border:1px solid #fcd200;border-radius:8px;padding:8px 16px;color:#0f1111;text-decoration:none">${escapeHtml(label)}</a></p>`;
