/** One message, ready to leave: every header the recipient sees is fixed here, so a resend is the same message. */
export interface MailMessage {
  /** `<id@domain>`: stable per outbox row, so a receiver can drop a resend after a crash. */
  messageId: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** When the message was written to the outbox, not when this attempt runs. */
  date: Date;
}

/** The Mailer port: SMTP (smtp-mailer.ts) or the local .eml outbox (file-mailer.ts). */
export interface Mailer {
  /** Resolves once the message is handed over (accepted by the server, or written); throws otherwise. */
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** nodemailer's message fields for `message`; both adapters compose the same MIME with it. */
export const nodemailerFields = (message: MailMessage) => ({
  messageId: message.messageId,
  from: message.from,
  to: message.to,
  subject: message.subject,
  text: message.text,
  html: message.html,
  date: message.date,
});
