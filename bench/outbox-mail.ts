// The mail a started shop wrote to its local outbox (DATA_DIR/mail, no SMTP_URL), read as a
// recipient would: the probes and benches follow its links.
import fs from "node:fs";
import path from "node:path";

/** The `.eml` files of DATA_DIR/mail to `recipient` whose subject is `subject`, newest last, waiting up to 10 s for `count`. */
export async function mails(dataDir: string, recipient: string, subject: string, count: number): Promise<string[]> {
  const folder = path.join(dataDir, "mail");
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = fs.existsSync(folder)
      ? fs
          .readdirSync(folder)
          .filter((name) => name.endsWith(".eml"))
          .map((name) => path.join(folder, name))
          .sort((a, b) => fs.statSync(a).mtimeMs - fs.statSync(b).mtimeMs)
          .map((file) => fs.readFileSync(file, "utf8"))
          .filter((text) => text.includes(subject) && new RegExp(`^To: .*${recipient.replace(/[.]/g, "\\.")}`, "m").test(text))
      : [];
    if (found.length >= count || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The first link to `base` in a mail (quoted-printable soft breaks and =3D undone). */
export const linkIn = (mail: string, base: string): string | undefined => {
  const text = mail.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
  return new RegExp(`${base.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[^\\s"<>]+`).exec(text)?.[0].replace(/&amp;/g, "&");
};

/** Opens the confirmation link of `email`'s mail, as its owner would: ADMIN_EMAILS grants the back office only then. */
export async function confirmAddress(base: string, publicUrl: string, dataDir: string, email: string): Promise<void> {
  const [mail] = await mails(dataDir, email, "Confirm your Storefront email address", 1);
  const link = mail && linkIn(mail, `${publicUrl}/api/auth/verify-email`);
  if (!link) throw new Error(`no confirmation mail to ${email} in ${dataDir}/mail`);
  const opened = await fetch(link.replace(publicUrl, base), { redirect: "manual" });
  if (opened.status !== 302 || opened.headers.get("location") !== "/") throw new Error(`the confirmation link answered ${opened.status} ${opened.headers.get("location")}`);
}
