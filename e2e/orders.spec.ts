import type { Page } from "@playwright/test";
import { card, expect, expectCartCount, formatCents, open, productById, registerAccount, test, toCents, viewports, waitForHydration } from "./support.ts";

const CARD = { number: "4242 4242 4242 4242", expiry: "12 / 34", cvc: "123", postal: "1000" };

/** In the app (no reload, so the basket survives): add the products, go to checkout and pay. */
async function buy(page: Page, ids: number[]) {
  await open(page, "/");
  for (const id of ids) await card(page, productById(id)).getByRole("button", { name: "Add to cart", exact: true }).click();
  await page.getByRole("banner").getByRole("link", { name: /^Cart/ }).click();
  await page.getByRole("link", { name: "Continue to checkout", exact: true }).click();
  await page.getByLabel("Card number").fill(CARD.number);
  await page.getByLabel("Expiry (MM / YY)").fill(CARD.expiry);
  await page.getByLabel("CVC").fill(CARD.cvc);
  await page.getByLabel("Postal code").fill(CARD.postal);
  await page.getByRole("button", { name: "Pay Now", exact: true }).click();
  await expect(page).toHaveURL(/\/orders$/);
  await expectCartCount(page, 0);
}

const orders = (page: Page) => page.getByRole("article", { name: /^Order pi_/ });

test("an order paid in one tab appears in the other within a second, without a reload", async ({ context, page, pageErrors }) => {
  await registerAccount(page);
  const other = await context.newPage();
  // The other tab has its live feed open before the payment starts.
  const feedOpen = other.waitForResponse((r) => r.url().includes("/api/orders/stream"));
  await open(other, "/orders");
  await feedOpen;
  await expect(other.getByText("You don't have orders yet.")).toBeVisible();
  const loads: string[] = [];
  other.on("framenavigated", (frame) => frame === other.mainFrame() && loads.push(frame.url()));

  await buy(page, [2, 2, 9]);
  // Live: the other tab shows the order without loading anything again.
  const order = orders(other);
  await expect(order).toHaveCount(1);
  expect(loads).toEqual([]);

  const id = (await order.getAttribute("aria-label"))!.replace("Order ", "");
  await expect(order.getByText(/^Order ID/)).toContainText(id);
  await expect(card(order, productById(2))).toBeVisible();
  await expect(card(order, productById(9))).toBeVisible();
  await expect(order.getByText("Quantity: 2")).toBeVisible();
  const total = toCents(productById(2).price) * 2 + toCents(productById(9).price);
  await expect(order.getByText(formatCents(total), { exact: true })).toBeVisible();
  await expect(order.locator("time")).toHaveText(/^[A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d\d [AP]M UTC$/);
  await expect(other.getByText("You don't have orders yet.")).toHaveCount(0);

  // The paying tab shows it once too (server-rendered list plus the live feed, no duplicate).
  await expect(orders(page)).toHaveCount(1);
  // A second order lands on top in both tabs.
  await buy(page, [5]);
  await expect(orders(other)).toHaveCount(2);
  await expect(orders(other).first().getByRole("article", { name: productById(5).title })).toBeVisible();
  await expect(orders(page)).toHaveCount(2);
  expect(pageErrors).toEqual([]);
});

test("Show more orders loads the next page", async ({ page }) => {
  // Eleven checkouts through the pages: three times the usual time, for a busy machine.
  test.slow();
  await registerAccount(page);
  for (let i = 0; i < 11; i++) await buy(page, [1]);
  await open(page, "/orders");
  await expect(orders(page)).toHaveCount(10);
  await page.getByRole("button", { name: "Show more orders", exact: true }).click();
  await expect(orders(page)).toHaveCount(11);
  await expect(page.getByRole("button", { name: "Show more orders" })).toHaveCount(0);
});

test("the orders page fits a phone screen", async ({ page }) => {
  await page.setViewportSize(viewports.phone);
  await registerAccount(page);
  await buy(page, [3]);
  await expect(orders(page)).toHaveCount(1);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBe(0);
});

test("the orders page hydrates in place: what the server drew from the page's data is what the browser draws", async ({ page, pageErrors }) => {
  await registerAccount(page);
  // Reached in the app: drawn from the client-side navigation's data request (/orders.data).
  await buy(page, [2, 2, 9]);
  const drawnInApp = await orders(page).innerText();
  await page.addInitScript(() => {
    // Anything hydration adds to or removes from the page's content, once the parser is done.
    const changes: string[] = [];
    (window as unknown as { __mainChanges: string[] }).__mainChanges = changes;
    document.addEventListener("DOMContentLoaded", () => {
      const main = document.getElementById("main");
      if (!main) return;
      new MutationObserver((records) => {
        for (const record of records) {
          for (const node of [...record.addedNodes, ...record.removedNodes]) if (node.nodeType === Node.ELEMENT_NODE) changes.push((node as Element).outerHTML.slice(0, 80));
        }
      }).observe(main, { childList: true, subtree: true });
    });
  });
  // A full load: rendered on the server from the loader's data, then hydrated from the same data.
  // From elsewhere: reloading the paying tab's entry would bring back its "placed" message, which
  // lives in the browser's history state, not in the server's page.
  await page.goto("about:blank");
  await page.goto("/orders");
  await waitForHydration(page);
  const order = orders(page);
  await expect(order).toHaveCount(1);
  await expect(card(order, productById(2))).toBeVisible();
  await expect(order.getByText("Quantity: 2")).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __mainChanges: string[] }).__mainChanges)).toEqual([]);
  // The same order, drawn the same, whichever way the page got its data.
  expect(await order.innerText()).toBe(drawnInApp);
  expect(pageErrors).toEqual([]);
});
