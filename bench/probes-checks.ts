// Live probes of sessions, redirects, limits and cards, one function each, against a started shop.
// Each prints what it sent and what came back; bench/probes.ts starts the servers and runs them.
import { OFF_SITE_TARGETS } from "../test/support/open-redirects.ts";

export const ORIGIN = "http://probes.test";
export const print = (probe: string, answer: string) => console.log(`  ${probe.padEnd(58)} -> ${answer}`);

const json = (body: unknown, cookie?: string): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", origin: ORIGIN, ...(cookie ? { cookie } : {}) },
  body: JSON.stringify(body),
});
const form = (fields: Record<string, string>): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
  body: new URLSearchParams(fields).toString(),
  redirect: "manual",
});

/** Signs up `email` at `base`; every cookie it set (session token and session cache), as a browser sends them. */
export async function signUp(base: string, email: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/sign-up/email`, json({ email, password: "correct horse", name: email }));
  if (response.status !== 200) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  return response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]!).join("; ");
}

export async function openRedirects(base: string): Promise<void> {
  await signUp(base, "redirects@example.com");
  const signIn = { intent: "signin", email: "redirects@example.com", password: "correct horse" };
  for (const target of OFF_SITE_TARGETS) {
    const posted = await fetch(`${base}/auth`, form({ ...signIn, redirectTo: target }));
    const data = await fetch(`${base}/auth.data`, form({ ...signIn, redirectTo: target }));
    const values = JSON.parse(await data.text()) as unknown[];
    const page = await (await fetch(`${base}/auth?redirectTo=${encodeURIComponent(target)}`)).text();
    const field = /name="redirectTo" value="([^"]*)"/.exec(page)?.[1];
    print(
      `redirectTo=${JSON.stringify(target)}`,
      `form ${posted.status} Location ${posted.headers.get("location")}; .data redirect ${values[values.indexOf("redirect") + 1]}; hidden field ${field}`,
    );
  }
}

export async function publicAnswers(base: string): Promise<void> {
  const cookies = await signUp(base, "public@example.com");
  // The session token alone, as a browser sends it once the minute-long session cache expired: it renews.
  const token = cookies.split("; ").find((cookie) => cookie.startsWith("storefront.session_token="))!;
  for (const path of ["/api/search?q=shirt", "/images/products/3-quilted-bomber-jacket.svg", "/api/orders"]) {
    const response = await fetch(`${base}${path}`, { headers: { cookie: token } });
    await response.arrayBuffer();
    const set = response.headers.getSetCookie().map((cookie) => cookie.split("=")[0]);
    print(`GET ${path} (session needing renewal)`, `${response.status}, Cache-Control: ${response.headers.get("cache-control")}, Set-Cookie: ${set.join(", ") || "none"}`);
  }
}

export async function oversizedPagePosts(base: string): Promise<void> {
  for (const [path, bytes] of [
    ["/auth", 5 * 1024 * 1024],
    ["/auth", 64 * 1024 + 1],
    ["/sign-out", 64 * 1024 + 1],
  ] as const) {
    const response = await fetch(`${base}${path}`, form({ email: "x".repeat(bytes - "email=".length) }));
    print(`POST ${path} with a ${bytes}-byte form`, `${response.status} ${await response.text()}`);
  }
}

export async function streamCaps(base: string): Promise<void> {
  const cookie = await signUp(base, "streams@example.com");
  const aborts: AbortController[] = [];
  const statuses: number[] = [];
  try {
    for (let i = 0; i < 11; i++) {
      const abort = new AbortController();
      aborts.push(abort);
      const response = await fetch(`${base}/api/orders/stream`, { headers: { cookie }, signal: abort.signal });
      statuses.push(response.status);
      if (response.status !== 200) print("stream #11 of one shopper", `${response.status}, Retry-After: ${response.headers.get("retry-after")}, ${await response.text()}`);
    }
    print("11 live order streams of one shopper", statuses.join(" "));
  } finally {
    for (const abort of aborts) abort.abort();
  }
}

export async function nonTestCards(base: string): Promise<void> {
  const cookie = await signUp(base, "cards@example.com");
  const products = (await (await fetch(`${base}/api/catalogue/products/3`)).json()) as { price: number };
  const total = Math.round(products.price * 100);
  for (const number of ["4111111111111111", "5500000000000004", "4242424242424241", "4242424242424242"]) {
    const created = await fetch(`${base}/api/payment/create`, json({ items: [{ id: 3, amount: 1 }], total }, cookie));
    const { clientSecret } = (await created.json()) as { clientSecret: string };
    const card = { number, expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvc: "123", postalCode: "1000" };
    const paid = await fetch(`${base}/api/payment/confirm`, json({ clientSecret, card }, cookie));
    print(`pay with ${number}`, `${paid.status} ${await paid.text()}`);
  }
}

export async function textPlainBodies(base: string): Promise<void> {
  const cookie = await signUp(base, "plain@example.com");
  for (const path of ["/api/payment/create", "/api/payment/confirm", "/api/auth/sign-in/email"]) {
    const response = await fetch(`${base}${path}`, {
      method: "POST",
      headers: { "content-type": "text/plain", origin: ORIGIN, cookie },
      body: JSON.stringify({ items: [{ id: 3, amount: 1 }], total: 1, email: "plain@example.com", password: "correct horse" }),
    });
    print(`POST ${path} as text/plain`, `${response.status} ${await response.text()}`);
  }
}

/** Copied cookies replayed on instance `second` after signing out on `first`: refused within a second? */
export async function replayAfterSignOut(first: string, second: string): Promise<void> {
  const cookie = await signUp(first, "replay@example.com");
  const orders = async () => (await fetch(`${second}/api/orders`, { headers: { cookie } })).status;
  print("GET /api/orders on instance 2 before sign-out", String(await orders()));
  const out = await fetch(`${first}/api/auth/sign-out`, json({}, cookie));
  const signedOutAt = Date.now();
  print("POST /api/auth/sign-out on instance 1", String(out.status));
  let status = await orders();
  while (status === 200 && Date.now() - signedOutAt < 5_000) status = await orders();
  print("GET /api/orders on instance 2 with the copied cookies", `${status} after ${Date.now() - signedOutAt} ms`);
  const payment = await fetch(`${second}/payment`, { headers: { cookie }, redirect: "manual" });
  print("GET /payment on instance 2 with the copied cookies", `${payment.status} ${payment.headers.get("location") ?? ""}`);
}
