import { gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import type { SessionUser } from "../auth/auth.ts";
import { openDatabase } from "../db/database.ts";
import { migrateToLatest } from "../db/migrations.ts";
import type { PageRenderer } from "../load-context.ts";
import { TEST_ORIGIN, jsonPost, signUp, testApp } from "../../test/support/app.ts";
import { confirmEmail } from "../../test/support/confirm-email.ts";
import { builtPages } from "../../test/support/pages.ts";
import { ChangingCatalogue } from "../../test/support/changing-catalogue.ts";
import { pagesLayer } from "../../test/support/shell-pages.ts";
import { SHELL_MARK } from "./shell-holes.ts";

type App = Awaited<ReturnType<typeof testApp>>["app"];
interface Shopper {
  email: string;
  name: string;
  uid: string;
  cookie: string;
}

/** The pages a signed-in visitor gets from a shell, with a query among them. */
const SHELL_ADDRESSES = ["/", "/products/1", "/results/electronics", "/search?q=backpack", "/cart", "/language"];
const ADMIN = "boss@example.com";

let ssr: PageRenderer;
let shop: App;
/** The same shop (same database, so the same accounts) with every page rendered in full. */
let fullShop: App;
let services: Awaited<ReturnType<typeof testApp>>["services"];
const catalogue = new ChangingCatalogue();
let ada: Shopper;
let boss: Shopper;

async function shopper(email: string): Promise<Shopper> {
  const cookie = await signUp(shop, email);
  const session = (await (await shop.request("/api/auth/get-session", { headers: { cookie } })).json()) as { user: { id: string } };
  return { email, name: email.split("@")[0]!, uid: session.user.id, cookie };
}

beforeAll(async () => {
  ssr = await builtPages();
  const database = openDatabase({ engine: "sqlite", file: ":memory:" });
  await migrateToLatest(database);
  const env = { ADMIN_EMAILS: ADMIN };
  ({ app: shop, services } = await testApp({ database, catalogue, ssr, env }));
  ({ app: fullShop } = await testApp({ database, catalogue, ssr, env: { ...env, PAGE_CACHE_ENTRIES: "0" } }));
  ada = await shopper("ada@example.com");
  // ADMIN_EMAILS makes boss an admin once the address is confirmed; signed in again, the session knows it.
  boss = await shopper(ADMIN);
  await confirmEmail(shop, services.database.db, ADMIN);
  const signIn = await shop.request("/api/auth/sign-in/email", jsonPost({ email: ADMIN, password: "correct horse" }));
  boss = { ...boss, cookie: signIn.headers.getSetCookie().find((c) => c.includes("session_token="))!.split(";")[0]! };
});

async function page(app: App, path: string, headers: Record<string, string> = {}) {
  const response = await app.request(`${TEST_ORIGIN}${path}`, { headers });
  const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1] ?? "";
  const body = Buffer.from(await response.arrayBuffer());
  const html = (response.headers.get("content-encoding") === "gzip" ? gunzipSync(body) : body).toString();
  return { status: response.status, headers: response.headers, shell: response.headers.get("x-page-shell"), html, nonce, normal: html.replaceAll(nonce, "NONCE") };
}

/** What a shopper's page must show of them, and never of the other. */
function expectOnlyOwnData(html: string, own: Shopper, other: Shopper) {
  expect(html).toContain(`Hello <!-- -->${own.name}</span>`);
  expect(html).toContain(`\\"uid\\",\\"${own.uid}\\",\\"email\\",\\"${own.email}\\"`);
  for (const theirs of [other.email, other.uid, `Hello <!-- -->${other.name}`]) expect(html).not.toContain(theirs);
  expect(html.includes('href="/admin"')).toBe(own.email === ADMIN);
  expect(html).not.toContain(SHELL_MARK);
}

describe("signed-in pages from personal shells", () => {
  it("are the page a full render for that user gives, byte for byte but the nonce, for customers and admins", async () => {
    for (const who of [ada, boss]) {
      for (const address of SHELL_ADDRESSES) {
        const first = await page(shop, address, { cookie: who.cookie });
        const again = await page(shop, address, { cookie: who.cookie });
        const full = await page(fullShop, address, { cookie: who.cookie });
        expect([first.shell, again.shell, full.shell], address).toEqual(["miss", "hit", null]);
        expect(full.status).toBe(200);
        for (const filled of [first, again]) {
          expect(filled.normal, `${who.name} ${address}`).toBe(full.normal);
          expect(filled.status).toBe(200);
          expect([...filled.html.matchAll(/nonce="([^"]+)"/g)].every((m) => m[1] === filled.nonce)).toBe(true);
          expect(filled.headers.get("content-type")).toBe(full.headers.get("content-type"));
        }
        expectOnlyOwnData(again.html, who, who === ada ? boss : ada);
      }
    }
  });

  it("are filled right whatever the user's values hold (markup, quotes, backslashes, </script>, unicode)", async () => {
    const odd: SessionUser[] = [
      { uid: `u"1\\</script>`, email: `o'neil"<b>&amp;</script><!--@ex"ample\u2028.com`, role: "customer" },
      { uid: "日本😀\u2029", email: "zoë ✓ \\n ${x}@bücher.example", role: "admin" },
    ];
    let user: SessionUser | null = null;
    const shelled = pagesLayer(ssr, services, { cache: true, user: () => user });
    const full = pagesLayer(ssr, services, { cache: false, user: () => user });
    for (const each of odd) {
      user = each;
      for (const address of ["/products/3", "/"]) {
        const expected = await page(full.app, address);
        for (const round of ["miss", "hit"]) {
          const filled = await page(shelled.app, address, { "accept-encoding": "gzip" });
          expect(filled.shell).toBe(round);
          expect(filled.normal, `${each.email} ${address}`).toBe(expected.normal);
        }
      }
    }
  });

  it("never show one user's name or data to another, however many ask at once", async () => {
    const askers = Array.from({ length: 60 }, (_, i) => [ada, boss, null][i % 3]!);
    const addresses = ["/products/5", "/results/jewelery", "/"];
    const answers = await Promise.all(askers.map((who, i) => page(shop, addresses[i % addresses.length]!, who ? { cookie: who.cookie, "accept-encoding": "gzip" } : {})));
    answers.forEach((answer, i) => {
      const who = askers[i]!;
      expect(answer.status).toBe(200);
      if (!who) {
        expect(answer.html).toContain("Hello, Sign In");
        for (const someone of [ada, boss]) expect(answer.html).not.toContain(someone.email);
      } else expectOnlyOwnData(answer.html, who, who === ada ? boss : ada);
    });
  });

  it("keep no user's data: only holes where the user's values go", async () => {
    const layer = pagesLayer(ssr, services, { cache: true });
    for (const who of [ada, boss]) for (const address of SHELL_ADDRESSES) await page(layer.app, address, { cookie: who.cookie });
    const stored = layer.shells.stored();
    expect(stored.map((shell) => shell.key).sort()).toEqual(SHELL_ADDRESSES.flatMap((address) => [`admin ${address}`, `customer ${address}`]).sort());
    for (const { key, text } of stored) {
      for (const someone of [ada, boss]) for (const value of [someone.email, someone.uid, `-->${someone.name}<`]) expect(text, key).not.toContain(value);
      expect(text, key).toContain("Hello <!-- -->{name}</span>");
      expect(text, key).toContain('\\"uid\\",\\"{uid}\\",\\"email\\",\\"{name}@{domain}\\"');
      expect(text, key).toMatch(/nonce="\{nonce\}"/);
    }
  });

  it("are private, gzipped as the browser asks, and still carry the session's cookie renewal", async () => {
    const plain = await page(shop, "/products/6", { cookie: ada.cookie, "accept-encoding": "identity" });
    const gzipped = await page(shop, "/products/6", { cookie: ada.cookie, "accept-encoding": "gzip, deflate, br" });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(gzipped.headers.get("content-encoding")).toBe("gzip");
    expect(gzipped.normal).toBe(plain.normal);
    for (const answer of [plain, gzipped]) {
      expect(answer.headers.get("cache-control")).toBe("private, no-store");
      expect(answer.headers.get("vary")).toContain("Accept-Encoding");
      // Only the session token was sent: the session's cache cookie comes back, as on any page.
      expect(answer.headers.getSetCookie().some((cookie) => cookie.includes("session_data="))).toBe(true);
    }
    expect(gzipped.shell).toBe("hit");
  });

  it("are dropped when the catalogue's data changes", async () => {
    await page(shop, "/results/jewelery", { cookie: ada.cookie });
    expect((await page(shop, "/results/jewelery", { cookie: ada.cookie })).shell).toBe("hit");
    await catalogue.change();
    expect((await page(shop, "/results/jewelery", { cookie: ada.cookie })).shell).toBe("miss");
  });
});

describe("pages never from a shell", () => {
  it("personal pages, errors, data requests and writes are rendered for the user, and private", async () => {
    const orders = await page(shop, "/orders", { cookie: ada.cookie });
    expect(orders.status).toBe(200);
    expect(orders.html).toContain("Hello <!-- -->ada");
    const admin = await page(shop, "/admin", { cookie: boss.cookie });
    expect(admin.status).toBe(200);
    const missing = await page(shop, "/products/9999", { cookie: ada.cookie });
    expect(missing.status).toBe(404);
    expect(missing.html).toContain("Hello <!-- -->ada");
    const data = await page(shop, "/products/1.data", { cookie: ada.cookie });
    expect(data.status).toBe(200);
    expect(data.html).toContain(ada.email);
    for (const answer of [orders, admin, missing, data]) {
      expect(answer.shell).toBeNull();
      expect(answer.headers.get("cache-control")).toBe("private, no-store");
    }
    const post = await shop.request(`${TEST_ORIGIN}/search`, { ...jsonPost({}, { cookie: ada.cookie }) });
    expect(post.headers.get("x-page-shell")).toBeNull();
  });
});
