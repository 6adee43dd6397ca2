import { type EmailVerificationPayload, emailVerification } from "./email-verification.ts";
import type { RenderedMail, TemplateContext } from "./layout.ts";
import { type OrderConfirmationPayload, orderConfirmation } from "./order-confirmation.ts";
import { type PasswordResetPayload, passwordReset } from "./password-reset.ts";
import { type RefundPayload, refundMail } from "./refund.ts";

export type { RenderedMail, TemplateContext } from "./layout.ts";

/**
 * Every kind of mail the shop sends and what its outbox row keeps. A new message (a refund's
 * "Your refund of {amount} for order {id}") is one more entry here and a template beside these.
 */
interface Payloads {
  email_verification: EmailVerificationPayload;
  order_confirmation: OrderConfirmationPayload;
  password_reset: PasswordResetPayload;
  refund: RefundPayload;
}

export type MailKind = keyof Payloads;
export type PayloadOf<K extends MailKind> = Payloads[K];

const templates: { [K in MailKind]: (payload: Payloads[K], context: TemplateContext) => RenderedMail } = {
  email_verification: emailVerification,
  order_confirmation: orderConfirmation,
  password_reset: passwordReset,
  refund: refundMail,
};

/** Kinds whose payload is a secret (a reset or confirmation token): the outbox forgets it once the mail has left. */
export const forgetAfterSending: ReadonlySet<string> = new Set<MailKind>(["password_reset", "email_verification"]);

/**
 * How long a message is worth sending after it was written: a reset link that has expired by the
 * time the mail server is back would only mislead, so its mail ends `failed` instead.
 */
const lifetimeMs: Partial<Record<MailKind, number>> = { password_reset: 15 * 60 * 1000, email_verification: 60 * 60 * 1000 };

export const outlived = (kind: string, created: number, now: number): boolean => {
  const lifetime = isKind(kind) ? lifetimeMs[kind] : undefined;
  return lifetime !== undefined && now - created > lifetime;
};

const isKind = (kind: string): kind is MailKind => Object.hasOwn(templates, kind);

/** The subject and bodies of an outbox row; throws for a kind this version does not know. */
export function renderMail(kind: string, payload: string, context: TemplateContext): RenderedMail {
  if (!isKind(kind)) throw new Error(`no template for mail of kind ${JSON.stringify(kind)}`);
  const render = templates[kind] as (payload: unknown, context: TemplateContext) => RenderedMail;
  return render(JSON.parse(payload), context);
}
