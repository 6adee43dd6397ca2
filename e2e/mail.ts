// Reading the mail the e2e server wrote to its local outbox (no SMTP_URL): .eml files under
// E2E_DATA_DIR/mail, which playwright.config.ts sets to the server's DATA_DIR.
import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext, expect } from "@playwright/test";
import { type ParsedMail, simpleParser } from "mailparser";

const outbox = (dataDir = process.env.E2E_DATA_DIR): string => {
  if (!dataDir) throw new Error("E2E_DATA_DIR is not set: run the journeys through playwright.config.ts");
  return path.join(dataDir, "mail");
};

/** Every message in the outbox addressed to `email`, oldest first (`dataDir`: a shop of the journey's own). */
export async function mailTo(email: string, dataDir?: string): Promise<ParsedMail[]> {
  const directory = outbox(dataDir);
  if (!fs.existsSync(directory)) return [];
  const files = fs.readdirSync(directory).filter((file) => file.endsWith(".eml")).sort();
  const messages = await Promise.all(files.map(async (file) => simpleParser(await fs.promises.readFile(path.join(directory, file)))));
  const addressed = (mail: ParsedMail) => [mail.to ?? []].flat().some((to) => to.value.some((a) => a.address === email));
  return messages.filter(addressed);
}

/** The reset link of the newest reset mail to `email`, or null while there is none. */
export async function resetLinkFor(email: string): Promise<string | null> {
  const mail = (await mailTo(email)).filter((m) => m.subject === "Reset your Storefront password").at(-1);
  return mail?.text?.match(/https?:\/\/\S+\/auth\/reset\?token=\S+/)?.[0] ?? null;
}

/**
 * Opens the link of the confirmation mail sign-up sent to `email`, as its owner would: the address
 * is then confirmed (what makes an ADMIN_EMAILS address an admin). Opening it twice is harmless.
 */
export async function confirmEmail(request: APIRequestContext, email: string, dataDir?: string): Promise<void> {
  const linkFor = async () => {
    const mail = (await mailTo(email, dataDir)).filter((m) => m.subject === "Confirm your Storefront email address").at(-1);
    return mail?.text?.match(/https?:\/\/\S+\/api\/auth\/verify-email\?token=\S+/)?.[0] ?? null;
  };
  await expect.poll(linkFor, { timeout: 10_000 }).not.toBeNull();
  const opened = await request.get((await linkFor())!, { maxRedirects: 0 });
  expect(opened.status()).toBe(302);
}
