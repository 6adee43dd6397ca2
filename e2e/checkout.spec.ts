import type { Page } from "@playwright/test";
import { card, expect, expectCartCount, expectRed, formatCents, open, productById, registerAccount, test, toCents, viewports } from "./support.ts";

const header = (page: Page) => page.getByRole("banner");
const payNow = (page: Page) => page.getByRole("button", { name: "Pay Now", exact: true });

/** Signs a new shopper in, puts two of product 1 and one of product 17 in the basket and opens checkout in the app. */
async function checkoutWithBasket(page: Page) {
  const email = await registerAccount(page);
  for (const id of [1, 1, 17]) await card(page, productById(id)).getByRole("button", { name: "Add to cart", exact: true }).click();
  await expectCartCount(page, 3);
  await header(page).getByRole("link", { name: /^Cart/ }).click();
  await page.getByRole("link", { name: "Continue to checkout", exact: true }).click();
  await expect(page).toHaveURL(/\/payment$/);
  return email;
}

async function fillCard(page: Page, number: string, { expiry = "12 / 34", cvc = "123", postal = "1000" } = {}) {
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiry (MM / YY)").fill(expiry);
  await page.getByLabel("CVC").fill(cvc);
  await page.getByLabel("Postal code").fill(postal);
}

const TOTAL = toCents(productById(1).price) * 2 + toCents(productById(17).price);

test("pay with 4242 4242 4242 4242: the order is placed, the basket emptied, and /orders says so", async ({ page, pageErrors }) => {
  const email = await checkoutWithBasket(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Checkout (3) items");
  const address = page.getByRole("region", { name: "Delivery Address" });
  await expect(address).toContainText(email);
  await expect(address).toContainText("Addis Ababa");
  const review = page.getByRole("region", { name: "Review items and delivery" });
  await expect(review.getByRole("article")).toHaveCount(2);
  await expect(card(review, productById(1))).toBeVisible();
  await expect(page.getByText("Total order amount:")).toContainText(formatCents(TOTAL));
  await expect(page.getByText(/Test mode:.*4242 4242 4242 4242/)).toBeVisible();

  await fillCard(page, "4242424242424242");
  await expect(page.getByLabel("Card number")).toHaveValue("4242 4242 4242 4242");
  await expect(page.getByRole("img", { name: "Visa" })).toBeVisible();
  await payNow(page).click();

  await expect(page).toHaveURL(/\/orders$/);
  await expect(page.getByRole("status").filter({ hasText: "You have placed an order" })).toBeVisible();
  const order = page.getByRole("article", { name: /^Order pi_[0-9a-f]{24}$/ });
  await expect(order).toHaveCount(1);
  await expect(order.getByText(/^Order ID/)).toContainText(/pi_[0-9a-f]{24}/);
  await expect(card(order, productById(17))).toBeVisible();
  await expect(order.getByText(formatCents(TOTAL), { exact: true })).toBeVisible();
  await expectCartCount(page, 0);
  expect(pageErrors).toEqual([]);
});

test("a declined card shows Stripe's message in red above the card field and keeps the basket", async ({ page, pageErrors }) => {
  await checkoutWithBasket(page);
  await fillCard(page, "4000 0000 0000 0002");
  await payNow(page).click();
  const declined = page.getByRole("main").getByRole("alert").filter({ hasText: "Your card was declined." });
  await expect(declined).toBeVisible();
  await expectRed(declined);
  const above = await declined.boundingBox();
  const field = await page.getByLabel("Card number").boundingBox();
  expect(above!.y + above!.height).toBeLessThanOrEqual(field!.y);
  await expect(payNow(page)).toBeEnabled();
  await expect(page).toHaveURL(/\/payment$/);
  await expectCartCount(page, 3);

  // The same checkout can then be paid with a good card.
  await fillCard(page, "4242 4242 4242 4242");
  await payNow(page).click();
  await expect(page).toHaveURL(/\/orders$/);
  // The browser itself logs the 402 answer of the declined attempt; nothing else may go wrong.
  expect(pageErrors.filter((e) => !e.includes("status of 402 (Payment Required)"))).toEqual([]);
});

test("the card field's inline error appears for an incomplete number and clears as it is completed", async ({ page }) => {
  await checkoutWithBasket(page);
  const error = page.locator("#card-error");
  await page.getByLabel("Card number").fill("4242 42");
  await expect(error).toBeEmpty();
  await page.getByLabel("Card number").blur();
  await expect(error).toHaveText("Your card number is incomplete.");
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await expect(error).toBeEmpty();
  await page.getByLabel("Card number").fill("4242 4242 4242 4241");
  await expect(error).toHaveText("Your card number is invalid.");
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM / YY)").fill("01 / 20");
  await expect(error).toHaveText("Your card's expiration year is in the past.");
  await page.getByLabel("Expiry (MM / YY)").fill("01 / 40");
  await expect(error).toBeEmpty();
  // Paying with fields missing names the first one, and creates nothing.
  await payNow(page).click();
  await expect(error).toHaveText("Your card's security code is incomplete.");
  await expect(payNow(page)).toBeEnabled();
});

test("while paying the button reads Please Wait... and is disabled", async ({ page }) => {
  await checkoutWithBasket(page);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/payment/confirm", async (route) => {
    await held;
    await route.continue();
  });
  await fillCard(page, "4242424242424242");
  await payNow(page).click();
  const waiting = page.getByRole("button", { name: "Please Wait...", exact: true });
  await expect(waiting).toBeDisabled();
  await expect(payNow(page)).toHaveCount(0);
  release();
  await expect(page).toHaveURL(/\/orders$/);
});

test("the checkout says when the backend gives no client secret", async ({ page }) => {
  await checkoutWithBasket(page);
  await page.route("**/api/payment/create", (route) => route.fulfill({ status: 200, contentType: "application/json", body: "{}" }));
  await fillCard(page, "4242424242424242");
  await payNow(page).click();
  await expect(page.getByRole("main").getByRole("alert").filter({ hasText: "Client secret not received from the backend." })).toBeVisible();
  await expectCartCount(page, 3);
});

test("an empty basket cannot be paid for", async ({ page }) => {
  await registerAccount(page);
  await open(page, "/payment");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Checkout (0) items");
  await expect(page.getByText(/Your basket is empty/)).toBeVisible();
  await expect(payNow(page)).toHaveCount(0);
});

test("the checkout fits a phone screen", async ({ page }) => {
  await page.setViewportSize(viewports.phone);
  await checkoutWithBasket(page);
  await fillCard(page, "4242424242424242");
  await expect(payNow(page)).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBe(0);
});
