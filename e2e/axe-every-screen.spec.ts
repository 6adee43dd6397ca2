import type { Page } from "@playwright/test";
import { card, cartLink, expect, expectCartCount, expectNoViolationsAtAll, open, productById, pay, registerAccount, signInAsAdmin, test, viewports } from "./support.ts";

// Every screen of the shop and of the back office, at phone and desktop width: axe-core with every
// rule it has, experimental ones and best practices included, finds nothing.

async function fillBasket(page: Page) {
  await open(page, "/");
  await card(page, productById(3)).getByRole("button", { name: "Add to cart", exact: true }).click();
  await expectCartCount(page, 1);
  await cartLink(page).click();
  await expect(page.getByRole("heading", { level: 1, name: "Hello, Your shopping basket" })).toBeVisible();
}

for (const [label, viewport] of Object.entries(viewports)) {
  test.describe(`axe with every rule at ${label} width (${viewport.width} px)`, () => {
    test.use({ viewport });

    test("the shop's open screens", async ({ page }) => {
      test.slow();
      for (const path of ["/", "/results/electronics", "/products/1", "/search?q=shirt", "/cart", "/auth", "/auth/forgot", "/language", "/conditions-of-use", "/privacy-notice", "/no-such-page"]) {
        await page.goto(path);
        await expectNoViolationsAtAll(page, path);
      }
      await fillBasket(page);
      await expectNoViolationsAtAll(page, "the cart with a line");
    });

    test("a shopper's screens: checkout and orders", async ({ page }) => {
      test.slow();
      await registerAccount(page);
      await open(page, "/orders");
      await expectNoViolationsAtAll(page, "no orders yet");
      await fillBasket(page);
      await page.getByRole("link", { name: "Continue to checkout", exact: true }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Checkout (1) items");
      await expectNoViolationsAtAll(page, "checkout");
      await pay(page, [{ id: 3, amount: 1 }]);
      await open(page, "/orders");
      await expect(page.getByRole("article", { name: /^Order pi_/ })).toHaveCount(1);
      await expectNoViolationsAtAll(page, "one order");
    });

    test("the back office's screens", async ({ page }) => {
      test.slow();
      await signInAsAdmin(page);
      await open(page, "/");
      const orderId = await pay(page, [{ id: 5, amount: 2 }]);
      for (const path of ["/admin", "/admin/products", "/admin/products/new", "/admin/products/import", "/admin/products/5", "/admin/orders", `/admin/orders/${orderId}`, "/admin/mail", "/admin/audit"]) {
        await open(page, path);
        await expect(page.getByRole("navigation", { name: "Back office" }), path).toBeVisible();
        await expectNoViolationsAtAll(page, path);
      }
    });
  });
}
