import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import type { Logger } from "../log.ts";
import { ensurePrivateDirectory, writePrivateFile } from "../private-files.ts";
import type { Mailer, MailMessage } from "./mailer.ts";
import { nodemailerFields } from "./mailer.ts";

/**
 * The default with no mail server: each message is written as an .eml file (what an SMTP server
 * would have received, byte for byte) under DATA_DIR/mail/, and logged, so a fresh `npm start`
 * shows every mail. A resend overwrites the same file: one file per message.
 */
export class FileMailer implements Mailer {
  private readonly composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });

  constructor(
    readonly directory: string,
    private readonly log: Logger,
  ) {}

  async send(message: MailMessage): Promise<void> {
    const info = await this.composer.sendMail(nodemailerFields(message));
    const raw = info.message;
    if (!Buffer.isBuffer(raw)) throw new Error("the message composer gave no buffer");
    // Messages hold live links (password resets): the folder is 0700 and each file 0600.
    await ensurePrivateDirectory(this.directory);
    const file = path.join(this.directory, fileName(message));
    // Written aside and renamed: a reader never sees half a message.
    await writePrivateFile(`${file}.tmp`, raw);
    await fs.rename(`${file}.tmp`, file);
    this.log.info({ to: message.to, subject: message.subject, file }, "mail written to the local outbox");
  }

  close(): void {}
}

/** `2026-11-24T10-00-00-000Z-<id>.eml`: sorts by time, names the message. */
function fileName(message: MailMessage): string {
  const id = message.messageId.replace(/^<|@.*$/g, "").replace(/[^\w-]/g, "");
  return `${message.date.toISOString().replace(/[:.]/g, "-")}-${id}.eml`;
}
