// Shared helpers for the browser journeys: the catalogue as the shop ships it, money formatting,
// hydration and a fixture that collects console errors, page errors and CSP violations.
import fs from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import axe from "axe-core";
import { test as base, expect } from "@playwright/test";
import type { Locator, Page } from "@playwright/test";
import type { FileProduct } from "../server/catalogue/transfer/export.ts";
import { confirmEmail } from "./mail.ts";

export { expect };

/** A product of catalogue/products.json (the FakeStore shape: price in dollars); its stock is the first, which the stock journeys sell out. */
export type CatalogueProduct = FileProduct;

export const products: CatalogueProduct[] = JSON.parse(
  fs.readFileSync(new URL("../catalogue/products.json", import.meta.url), "utf8"),
) as CatalogueProduct[];

/** The four category names, in the order they first appear in the catalogue. */
export const categories: string[] = [...new Set(products.map((p) => p.category))];

export const inCategory = (category: string): CatalogueProduct[] => products.filter((p) => p.category === category);

/** Dollars to integer cents, so sums are exact. */
export const toCents = (price: number): number => Math.round(price * 100);

/** The one product with this price (in dollars); fails loudly if the data no longer has exactly one. */
export function productPriced(price: number): CatalogueProduct {
  const found = products.filter((p) => toCents(p.price) === toCents(price));
  if (found.length !== 1) throw new Error(`Expected exactly one product priced ${price}, found ${found.length}`);
  return found[0]!;
}

export function productById(id: number): CatalogueProduct {
  const found = products.find((p) => p.id === id);
  if (!found) throw new Error(`No product ${id} in catalogue/products.json`);
  return found;
}

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** Integer cents as the shop shows them: 123400 -> "$1,234.00". */
export const formatCents = (cents: number): string => usd.format(cents / 100);

export const formatPrice = (product: CatalogueProduct): string => formatCents(toCents(product.price));

/** The product card of a product, found by its accessible name (the title). */
export const card = (scope: Page | Locator, product: CatalogueProduct): Locator =>
  scope.getByRole("article", { name: product.title, exact: true });

/**
 * Waits until React has taken over the server-rendered page (the app marks <html data-hydrated>),
 * so clicks run the app's handlers instead of being lost.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.locator("html[data-hydrated=true]").waitFor({ state: "attached", timeout: 20_000 });
}

/** Navigates with a full page load and waits for hydration. Returns the document response. */
export async function open(page: Page, url: string) {
  const response = await page.goto(url);
  await waitForHydration(page);
  return response;
}

export const cartCount = (page: Page): Locator => page.getByTestId("cart-count");

export const cartLink = (page: Page): Locator => page.getByRole("banner").locator('a[href="/cart"]');

/** What the header's cart link should be called for `count` items. */
export const cartName = (count: number): string => `Cart, ${count} ${count === 1 ? "item" : "items"}`;

export async function expectCartCount(page: Page, count: number): Promise<void> {
  await expect(cartCount(page)).toHaveText(String(count));
  await expect(cartLink(page)).toHaveAccessibleName(cartName(count));
}

export const viewports = {
  desktop: { width: 1280, height: 900 },
  phone: { width: 360, height: 740 },
} as const;

/**
 * `pageErrors` collects every console error, uncaught page error and Content-Security-Policy
 * violation of the test's page; tests end with `expect(pageErrors).toEqual([])`.
 */
export const test = base.extend<{ pageErrors: string[] }>({
  pageErrors: async ({ page }, provide) => {
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(`console.error: ${message.text()} (${message.location().url})`);
    });
    page.on("pageerror", (error) => errors.push(`page error: ${error.message}`));
    // Chromium also logs violations to the console; this names the directive and the blocked resource.
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (event) => {
        console.error(`CSP violation: ${event.effectiveDirective} blocked ${event.blockedURI || "inline"}`);
      });
    });
    await provide(errors);
  },
});

/** Text in a clearly red colour, as the spec's red messages are. */
export async function expectRed(locator: Locator): Promise<void> {
  const [r, g, b] = (await locator.evaluate((el) => getComputedStyle(el).color)).match(/\d+/g)!.map(Number);
  expect(r! > 150 && g! < 80 && b! < 80, `colour rgb(${r}, ${g}, ${b}) is red`).toBe(true);
}

/** The sign-in screen as a protected page's redirect leaves it: its heading and its red message. */
export async function expectSignInFor(page: Page, path: string, message: string): Promise<void> {
  await expect(page).toHaveURL((url) => url.pathname === "/auth" && url.searchParams.get("redirectTo") === path);
  await expect(page.getByRole("heading", { level: 1, name: "Sign In" })).toBeVisible();
  const shown = page.getByRole("main").getByText(message, { exact: true });
  await expect(shown).toBeVisible();
  await expectRed(shown);
}

let accounts = 0;
/** An email no other test uses, so journeys can register in parallel on one server. */
export const uniqueEmail = (name = "shopper"): string => `${name}.${Date.now().toString(36)}.${process.pid}.${++accounts}@example.com`;

export const PASSWORD = "correct horse battery";

/** Fills the sign-in form and presses one of its buttons. */
export async function submitAuth(page: Page, email: string, password: string, button: "Sign In" | "Create your account"): Promise<void> {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("main").getByRole("button", { name: button, exact: true }).click();
}

/** Registers a fresh account through the sign-in screen and waits for the signed-in header. */
export async function registerAccount(page: Page, email = uniqueEmail()): Promise<string> {
  await open(page, "/auth");
  await submitAuth(page, email, PASSWORD, "Create your account");
  await expect(page.getByRole("banner").getByText(`Hello ${email.split("@")[0]}`, { exact: true })).toBeVisible();
  return email;
}

/** axe-core finds nothing serious or critical on the page as it is now (scanned at rest, not hovered). */
export async function expectNoSeriousViolations(page: Page): Promise<void> {
  await page.mouse.move(0, 0);
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const report = serious
    .map((v) => `${v.impact} ${v.id}: ${v.help}\n${v.nodes.map((n) => `  ${n.target.join(" ")}: ${n.failureSummary ?? ""}`).join("\n")}`)
    .join("\n");
  expect(serious, report).toEqual([]);
}

/** Every rule axe-core has, the experimental ones and the best practices included, switched on. */
const EVERY_AXE_RULE = Object.fromEntries(axe.getRules().map((rule) => [rule.ruleId, { enabled: true }]));

/**
 * axe-core, with every rule it has switched on, finds nothing at all on the page as it is now.
 * A soft expectation: a journey through several screens reports each screen's findings.
 */
export async function expectNoViolationsAtAll(page: Page, where = page.url()): Promise<void> {
  await page.mouse.move(0, 0);
  const { violations } = await new AxeBuilder({ page }).options({ rules: EVERY_AXE_RULE }).analyze();
  const report = violations
    .map((v) => `${v.impact ?? ""} ${v.id}: ${v.help}\n${v.nodes.map((n) => `  ${n.target.join(" ")}: ${(n.failureSummary ?? "").split("\n").slice(1, 2).join("")}`).join("\n")}`)
    .join("\n");
  expect.soft(report, `axe on ${where}`).toBe("");
}

/** The journeys' admin: playwright.config.ts lists it in the server's ADMIN_EMAILS. */
export const ADMIN_EMAIL = "admin@example.com";

/**
 * Signs this browser in as the journeys' admin, registering the account if no journey has yet
 * (parallel journeys share it: a second registration fails). ADMIN_EMAILS makes it an admin once
 * the address is confirmed, so every caller opens the confirmation mail's link, then signs in: the
 * session starts with the role.
 */
export async function signInAsAdmin(page: Page, baseURL = test.info().project.use.baseURL!): Promise<void> {
  const origin = new URL(baseURL).origin;
  const body = { email: ADMIN_EMAIL, password: PASSWORD, name: ADMIN_EMAIL };
  await page.request.post(`${origin}/api/auth/sign-up/email`, { data: body, headers: { origin } });
  await confirmEmail(page.request, ADMIN_EMAIL);
  const signIn = await page.request.post(`${origin}/api/auth/sign-in/email`, { data: { email: ADMIN_EMAIL, password: PASSWORD }, headers: { origin } });
  expect(signIn.status(), await signIn.text()).toBe(200);
}

/**
 * Pays for `items` as the page's signed-in shopper, as the checkout page does (its own API calls,
 * same origin, Stripe's test card); the order's id.
 */
export async function pay(page: Page, items: Array<{ id: number; amount: number }>): Promise<string> {
  const origin = new URL(page.url()).origin;
  const total = items.reduce((sum, item) => sum + toCents(productById(item.id).price) * item.amount, 0);
  const created = await page.request.post("/api/payment/create", { data: { items, total }, headers: { origin } });
  const { clientSecret } = (await created.json()) as { clientSecret: string };
  const card = { number: "4242424242424242", expMonth: 12, expYear: 2040, cvc: "123", postalCode: "1000" };
  const paid = await page.request.post("/api/payment/confirm", { data: { clientSecret, card }, headers: { origin } });
  return ((await paid.json()) as { paymentIntent: { id: string } }).paymentIntent.id;
}
