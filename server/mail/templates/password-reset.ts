import { escapeHtml, htmlButton, htmlDocument, type RenderedMail, type TemplateContext } from "./layout.ts";

export interface PasswordResetPayload {
  /** The one-use token better-auth made; the link carries it to /auth/reset. */
  token: string;
  /** How long the link works, in minutes (said in the mail). */
  validMinutes: number;
}

export const resetLink = (publicUrl: string, token: string): string => `${publicUrl}/auth/reset?token=${encodeURIComponent(token)}`;

export function passwordReset(reset: PasswordResetPayload, { publicUrl }: TemplateContext): RenderedMail {
  const subject = "Reset your Storefront password";
  const link = resetLink(publicUrl, reset.token);
  const text = [
    "Someone asked to reset the password of your Storefront account.",
    "",
    `To choose a new password, open this link within ${reset.validMinutes} minutes. It works once.`,
    "",
    link,
    "",
    "If it was not you, ignore this message: your password stays as it is.",
    "",
  ].join("\n");
  const html = htmlDocument(
    subject,
    `<h1 style="font-size:22px;margin:0 0 8px">Reset your password</h1>
<p>Someone asked to reset the password of your Storefront account.</p>
<p>To choose a new password, open this link within ${reset.validMinutes} minutes. It works once.</p>
${htmlButton(link, "Choose a new password")}
<p style="font-size:13px;word-break:break-all">${escapeHtml(link)}</p>
<p>If it was not you, ignore this message: your password stays as it is.</p>`,
  );
  return { subject, text, html };
}
