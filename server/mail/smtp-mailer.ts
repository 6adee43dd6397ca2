import nodemailer from "nodemailer";
import type { Mailer, MailMessage } from "./mailer.ts";
import { nodemailerFields } from "./mailer.ts";

// A mail server that stops answering must not hold the worker: it fails the attempt, which is retried.
const CONNECTION_TIMEOUT_MS = 10_000;
const GREETING_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 30_000;

/** Sends through the SMTP server of SMTP_URL (smtp://user:pass@host:587, or smtps://). */
export class SmtpMailer implements Mailer {
  private readonly transport: ReturnType<typeof nodemailer.createTransport>;

  constructor(private readonly smtpUrl: string) {
    this.transport = nodemailer.createTransport({
      url: smtpUrl,
      connectionTimeout: CONNECTION_TIMEOUT_MS,
      greetingTimeout: GREETING_TIMEOUT_MS,
      socketTimeout: SOCKET_TIMEOUT_MS,
    });
  }

  async send(message: MailMessage): Promise<void> {
    try {
      await this.transport.sendMail(nodemailerFields(message));
    } catch (error) {
      // The URL holds the password: whatever the error says, it never carries it.
      throw new Error(redactSecret(error instanceof Error ? error.message : String(error), this.smtpUrl));
    }
  }

  close(): void {
    this.transport.close();
  }
}

/** `text` without the URL or its user and password, in plain or URL-encoded form. */
export function redactSecret(text: string, smtpUrl: string): string {
  const secrets = [smtpUrl];
  try {
    const url = new URL(smtpUrl);
    for (const part of [url.password, url.username]) if (part) secrets.push(part, decodeURIComponent(part));
  } catch {
    // not a URL: the whole string is the secret
  }
  return secrets
    .filter((secret) => secret.length > 0)
    .sort((a, b) => b.length - a.length)
    .reduce((result, secret) => result.split(secret).join("***"), text);
}
