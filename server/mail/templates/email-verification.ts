import { escapeHtml, htmlButton, htmlDocument, type RenderedMail, type TemplateContext } from "./layout.ts";

export interface EmailVerificationPayload {
  /** The signed token better-auth made; the link carries it to better-auth's verify-email endpoint. */
  token: string;
  /** How long the link works, in minutes (said in the mail). */
  validMinutes: number;
}

/**
 * better-auth's own endpoint (it answers GET), which marks the address confirmed and sends the
 * browser home. The link is made here from the token alone, so no callback a client sent at
 * sign-up ends up in a mail.
 */
export const verificationLink = (publicUrl: string, token: string): string => `${publicUrl}/api/auth/verify-email?token=${encodeURIComponent(token)}&callbackURL=/`;

export function emailVerification(verification: EmailVerificationPayload, { publicUrl }: TemplateContext): RenderedMail {
  const subject = "Confirm your Storefront email address";
  const link = verificationLink(publicUrl, verification.token);
  const text = [
    "Someone created a Storefront account with this email address.",
    "",
    `To confirm that the address is yours, open this link within ${verification.validMinutes} minutes.`,
    "",
    link,
    "",
    "If it was not you, ignore this message and do not open the link.",
    "",
  ].join("\n");
  const html = htmlDocument(
    subject,
    `<h1 style="font-size:22px;margin:0 0 8px">Confirm your email address</h1>
<p>Someone created a Storefront account with this email address.</p>
<p>To confirm that the address is yours, open this link within ${verification.validMinutes} minutes.</p>
${htmlButton(link, "Confirm my email address")}
<p style="font-size:13px;word-break:break-all">${escapeHtml(link)}</p>
<p>If it was not you, ignore this message and do not open the link.</p>`,
  );
  return { subject, text, html };
}
