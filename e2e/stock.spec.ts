import type { Browser, Page } from "@playwright/test";
import { card, expect, expectCartCount, expectRed, open, productById, registerAccount, test, toCents, viewports } from "./support.ts";

// Stock shoppers can see, and a last unit only one of two shoppers can buy.
// Product 8 starts with 3 units and product 12 with 5 (catalogue/products.json); no other journey buys them.
const RING = productById(8);
const BAND = productById(12);
const SHOTS = "test-results/stock";

const payNow = (page: Page) => page.getByRole("button", { name: "Pay Now", exact: true });

async function fillCard(page: Page) {
  await page.getByLabel("Card number").fill("4242424242424242");
  await page.getByLabel("Expiry (MM / YY)").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  await page.getByLabel("Postal code").fill("1000");
}

async function toPayment(page: Page) {
  await page.getByRole("banner").getByRole("link", { name: /^Cart/ }).click();
  await page.getByRole("link", { name: "Continue to checkout", exact: true }).click();
  await expect(page).toHaveURL(/\/payment$/);
}

test("a product with 3 units says so; once they are bought its page and card say it is unavailable", async ({ page, pageErrors }) => {
  await registerAccount(page);
  await open(page, `/products/${RING.id}`);
  const product = card(page, RING);
  await expect(product.getByText("Only 3 left in stock.", { exact: true })).toBeVisible();
  for (const size of [viewports.phone, viewports.desktop]) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `${SHOTS}/product-3-left-${size.width}.png`, fullPage: true });
  }
  const add = product.getByRole("button", { name: "Add to cart", exact: true });
  for (let i = 0; i < 4; i++) await add.click();
  await expectCartCount(page, 4);
  // One more than there is: the cart says so, until the quantity comes down.
  await page.getByRole("banner").getByRole("link", { name: /^Cart/ }).click();
  await expect(page).toHaveURL(/\/cart$/);
  const short = page.getByRole("listitem").filter({ has: card(page, RING) }).getByText("Only 3 left in stock.", { exact: true });
  await expect(short).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/cart-only-3-left-1280.png`, fullPage: true });
  await page.getByRole("button", { name: `Decrease quantity of ${RING.title}` }).click();
  await expect(short).toHaveCount(0);
  await expectCartCount(page, 3);
  await page.getByRole("link", { name: "Continue to checkout", exact: true }).click();
  await expect(page).toHaveURL(/\/payment$/);
  await fillCard(page);
  await payNow(page).click();
  await expect(page).toHaveURL(/\/orders$/);

  await open(page, `/products/${RING.id}`);
  await expect(card(page, RING).getByText("Currently unavailable.", { exact: true })).toBeVisible();
  await expect(card(page, RING).getByRole("button", { name: "Out of stock", exact: true })).toBeDisabled();
  await expect(card(page, RING).getByRole("button", { name: "Add to cart" })).toHaveCount(0);
  await open(page, "/");
  await expect(card(page, RING).getByRole("button", { name: "Out of stock", exact: true })).toBeDisabled();
  for (const size of [viewports.phone, viewports.desktop]) {
    await page.setViewportSize(size);
    await card(page, RING).scrollIntoViewIfNeeded();
    await card(page, RING).screenshot({ path: `${SHOTS}/card-out-of-stock-${size.width}.png` });
    await open(page, `/products/${RING.id}`);
    await page.screenshot({ path: `${SHOTS}/product-unavailable-${size.width}.png`, fullPage: true });
    await open(page, "/");
  }
  expect(pageErrors).toEqual([]);
});

/** A signed-in shopper in a browser of their own, with one unit of the band in the basket, at /payment with the card filled. */
async function shopperAtPayment(browser: Browser, baseURL: string): Promise<Page> {
  const page = await (await browser.newContext({ baseURL })).newPage();
  await registerAccount(page);
  await open(page, `/products/${BAND.id}`);
  await card(page, BAND).getByRole("button", { name: "Add to cart", exact: true }).click();
  await expectCartCount(page, 1);
  await toPayment(page);
  await fillCard(page);
  return page;
}

test("two shoppers race for the last unit: one order, the other is told it is out of stock and keeps the basket", async ({ page, browser, baseURL }) => {
  test.setTimeout(120_000); // three shoppers sign up, two of them in browsers of their own
  // Someone buys 4 of the 5 first (through the API, as the payment page does).
  await registerAccount(page);
  const origin = { origin: baseURL! };
  const created = await page.request.post("/api/payment/create", { data: { items: [{ id: BAND.id, amount: 4 }], total: toCents(BAND.price) * 4 }, headers: origin });
  const { clientSecret } = (await created.json()) as { clientSecret: string };
  const card4242 = { number: "4242424242424242", expMonth: 12, expYear: 2040, cvc: "123", postalCode: "1000" };
  expect((await page.request.post("/api/payment/confirm", { data: { clientSecret, card: card4242 }, headers: origin })).status()).toBe(200);

  const [first, second] = await Promise.all([shopperAtPayment(browser, baseURL!), shopperAtPayment(browser, baseURL!)]);
  await Promise.all([payNow(first).click(), payNow(second).click()]);
  const outcome = async (shopper: Page) => {
    const refused = shopper.getByRole("alert").filter({ hasText: `${BAND.title} is out of stock.` });
    await expect(refused.or(shopper.getByText("You have placed an order"))).toBeVisible();
    return (await refused.count()) > 0 ? "refused" : "ordered";
  };
  const outcomes = [await outcome(first), await outcome(second)];
  expect([...outcomes].sort()).toEqual(["ordered", "refused"]);
  const loser = outcomes[0] === "refused" ? first : second;
  const message = loser.getByRole("alert").filter({ hasText: `${BAND.title} is out of stock.` });
  await expectRed(message);
  await expect(loser).toHaveURL(/\/payment$/);
  await expectCartCount(loser, 1);
  await expect(card(loser.getByRole("region", { name: "Review items and delivery" }), BAND)).toBeVisible();
  for (const size of [viewports.phone, viewports.desktop]) {
    await loser.setViewportSize(size);
    await loser.screenshot({ path: `${SHOTS}/payment-out-of-stock-${size.width}.png`, fullPage: true });
  }
  // The cart marks the line that asks for more than there is.
  await loser.getByRole("banner").getByRole("link", { name: /^Cart/ }).click();
  await expect(loser.getByRole("listitem").filter({ has: card(loser, BAND) }).getByText("Currently unavailable.", { exact: true })).toBeVisible();
});
