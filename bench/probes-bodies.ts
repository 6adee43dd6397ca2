// Live probes of what the shop takes in: malformed and non-JSON bodies, links that carry a token.
import { linkIn, mails } from "./outbox-mail.ts";
import { ORIGIN, print, signUp } from "./probes-checks.ts";

const short = (text: string) => text.replace(/\s+/g, " ").slice(0, 90);

/** Junk of each content type to the account pages and better-auth: 4xx with a message, never 5xx. */
export async function malformedBodies(base: string): Promise<void> {
  const cookie = await signUp(base, "junk@example.com");
  const junk: Array<[string, string]> = [
    ["multipart/form-data; boundary=x", "--y\r\nnot a part"],
    ["multipart/form-data", "no boundary at all"],
    ["application/x-www-form-urlencoded", "email=%zz&password=%"],
    ["application/json", "{\"intent\":"],
  ];
  for (const path of ["/auth", "/auth/forgot", "/auth/reset?token=x", "/auth.data"]) {
    const statuses = [];
    for (const [type, body] of junk) {
      const response = await fetch(`${base}${path}`, { method: "POST", headers: { "content-type": type, origin: ORIGIN }, body, redirect: "manual" });
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    print(`POST ${path} with junk (multipart x2, form, JSON)`, statuses.join(" "));
  }
  const update = await fetch(`${base}/api/auth/update-user`, { method: "POST", headers: { "content-type": "application/json", origin: ORIGIN, cookie }, body: '{"name":null}' });
  print('POST /api/auth/update-user {"name":null}', `${update.status} ${short(await update.text())}`);
  const form = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
    body: "email=junk%40example.com&password=correct+horse",
  });
  print("POST /api/auth/sign-in/email as a form", `${form.status} ${short(await form.text())}`);
}

/** A reset link is never kept by a cache, and an older link dies with a reset made from a newer one. */
export async function resetLinks(base: string, dataDir: string): Promise<void> {
  const email = "twice@example.com";
  await signUp(base, email);
  for (let i = 0; i < 2; i++) {
    await fetch(`${base}/auth/forgot`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
      body: new URLSearchParams({ email }).toString(),
      redirect: "manual",
    });
  }
  const links = (await mails(dataDir, email, "Reset your Storefront password", 2)).map((mail) => linkIn(mail, `${ORIGIN}/auth/reset?token=`)).filter(Boolean) as string[];
  print("reset mails for one account in DATA_DIR/mail", String(links.length));
  if (links.length < 2) return;
  const [older, newer] = links.map((link) => new URL(link).searchParams.get("token")!);
  for (let i = 0; i < 2; i++) {
    const page = await fetch(`${base}/auth/reset?token=${newer}`);
    await page.arrayBuffer();
    print(`GET /auth/reset?token=… (#${i + 1})`, `${page.status}, X-Page-Cache: ${page.headers.get("x-page-cache")}, Cache-Control: ${page.headers.get("cache-control")}`);
  }
  const reset = (token: string, password: string) =>
    fetch(`${base}/api/auth/reset-password`, { method: "POST", headers: { "content-type": "application/json", origin: ORIGIN }, body: JSON.stringify({ token, newPassword: password }) });
  print("reset with the newer link", String((await reset(newer!, "a new password 1")).status));
  const again = await reset(older!, "a new password 2");
  print("reset with the older link afterwards", `${again.status} ${short(await again.text())}`);
}
