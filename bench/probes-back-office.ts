// Live probes of the back office and the accounts that reach it, against a started shop whose
// ADMIN_EMAILS names BOSS and whose mail goes to DATA_DIR/mail (the embedded outbox).
import { linkIn, mails } from "./outbox-mail.ts";
import { ORIGIN, print, signUp } from "./probes-checks.ts";

export const BOSS = "boss@example.com";

const json = (body: unknown, cookie?: string, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", origin: ORIGIN, ...(cookie ? { cookie } : {}), ...headers },
  body: JSON.stringify(body),
});
const short = (text: string) => text.replace(/\s+/g, " ").slice(0, 90);

/** The back office's addresses, spelt as the routers read them and as the old gate did not. */
export async function encodedBackOffice(base: string): Promise<void> {
  const customer = await signUp(base, "encoded@example.com");
  const addresses = ["/api/%61dmin/orders", "/api/adm%69n/audit", "/api/%61%64%6d%69%6e/mail", "/api/admin/products/", "/%61dmin", "/ADMIN/orders", "/%61dmin/audit.data"];
  for (const [who, cookie] of [["anonymous", undefined], ["customer", customer]] as const) {
    for (const address of addresses) {
      const response = await fetch(`${base}${address}`, { headers: cookie ? { cookie } : {} });
      const body = await response.text();
      const leaks = /aria-label="Back office"|routes\/admin/.test(body) ? "LEAKS the back office" : "nothing of the back office";
      print(`GET ${address} (${who})`, `${response.status}, ${leaks}`);
    }
    const write = await fetch(`${base}/api/%61dmin/products/1/archive`, json({}, cookie));
    print(`POST /api/%61dmin/products/1/archive (${who})`, `${write.status} ${short(await write.text())}`);
  }
  const unknown = await fetch(`${base}/no-such-page`);
  const admin = await fetch(`${base}/admin`);
  print("GET /admin against GET /no-such-page (anonymous)", `${admin.status}/${unknown.status}, Cache-Control ${admin.headers.get("cache-control")}/${unknown.headers.get("cache-control")}`);
}

/** ADMIN_EMAILS grants the back office only once the address is confirmed from its mail. Returns BOSS's cookies. */
export async function verifiedStaff(base: string, dataDir: string): Promise<string> {
  const cookie = await signUp(base, BOSS);
  print(`GET /api/admin/audit as ${BOSS}, not yet confirmed`, String((await fetch(`${base}/api/admin/audit`, { headers: { cookie } })).status));
  const [mail] = await mails(dataDir, BOSS, "Confirm your Storefront email address", 1);
  const link = mail && linkIn(mail, `${ORIGIN}/api/auth/verify-email`);
  print("the confirmation mail in DATA_DIR/mail", link ? `links to ${link.slice(0, 70)}…` : "NOT FOUND");
  if (!link) return cookie;
  const opened = await fetch(link.replace(ORIGIN, base), { redirect: "manual", headers: { cookie } });
  print("GET the confirmation link", `${opened.status} Location ${opened.headers.get("location")}`);
  const audit = await fetch(`${base}/api/admin/audit`, { headers: { cookie } });
  const entries = audit.status === 200 ? ((await audit.json()) as { entries: Array<{ action: string; actor: string; target: string }> }).entries : [];
  print(`GET /api/admin/audit as ${BOSS}, confirmed`, `${audit.status}; ${entries.map((e) => `${e.action} ${e.target} by ${e.actor}`).join("; ")}`);
  return cookie;
}

/** Refund bodies with a negative amount or an unknown field, and back-office forms with a bad version or a CR/LF title. */
export async function strictBackOffice(base: string, boss: string): Promise<void> {
  const shopper = await signUp(base, "refunds@example.com");
  const product = (await (await fetch(`${base}/api/catalogue/products/3`)).json()) as { price: number };
  const created = await fetch(`${base}/api/payment/create`, json({ items: [{ id: 3, amount: 1 }], total: Math.round(product.price * 100) }, shopper));
  const { clientSecret } = (await created.json()) as { clientSecret: string };
  const card = { number: "4242424242424242", expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvc: "123", postalCode: "1000" };
  await fetch(`${base}/api/payment/confirm`, json({ clientSecret, card }, shopper));
  const orders = (await (await fetch(`${base}/api/admin/orders`, { headers: { cookie: boss } })).json()) as { orders?: Array<{ id: string }> };
  const order = orders.orders?.[0]?.id ?? "none";
  for (const body of [{ amount: -500, reason: "probe", restock: false }, { lines: [{ id: 3, amount: -1 }], reason: "probe", restock: false }]) {
    const response = await fetch(`${base}/api/admin/orders/${order}/refunds`, json(body, boss, { "idempotency-key": `probe-${JSON.stringify(body).length}` }));
    print(`refund ${JSON.stringify(body)}`, `${response.status} ${short(await response.text())}`);
  }
  const form = (fields: Record<string, string>): RequestInit => ({
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN, cookie: boss },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
  for (const fields of [{ intent: "archive", version: "abc" }]) {
    const response = await fetch(`${base}/admin/products/3`, form(fields));
    print(`POST /admin/products/3 ${new URLSearchParams(fields)}`, String(response.status));
  }
  const titled = await fetch(`${base}/api/admin/products/3`, { ...json({ title: "Two\r\nlines" }, boss), method: "PUT" });
  print("PUT /api/admin/products/3 with a CR/LF title", `${titled.status} ${short(await titled.text())}`);
}

/** One shopper asking to hold more than MAX_UNITS_PER_PRODUCT of a product. */
export async function unitLimit(base: string): Promise<void> {
  const cookie = await signUp(base, "hoarder@example.com");
  const product = (await (await fetch(`${base}/api/catalogue/products/3`)).json()) as { price: number };
  for (const items of [[{ id: 3, amount: 11 }], Array.from({ length: 11 }, () => ({ id: 3, amount: 1 }))]) {
    const total = Math.round(product.price * 100) * 11;
    const response = await fetch(`${base}/api/payment/create`, json({ items, total }, cookie));
    print(`create: 11 units of product 3 in ${items.length} line(s)`, `${response.status} ${short(await response.text())}`);
  }
}
