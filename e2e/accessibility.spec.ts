import type { Page } from "@playwright/test";
import {
  card,
  cartLink,
  expect,
  expectCartCount,
  expectNoSeriousViolations,
  open,
  PASSWORD,
  productById,
  registerAccount,
  submitAuth,
  test,
  uniqueEmail,
  viewports,
} from "./support.ts";

// Every screen in its main states, at phone and desktop width: axe-core finds nothing serious or
// critical. (Home, a product page, a category and a full cart are in pages.spec.ts.)

async function fillBasket(page: Page) {
  await open(page, "/");
  await card(page, productById(3)).getByRole("button", { name: "Add to cart", exact: true }).click();
  await expectCartCount(page, 1);
}

async function toCheckout(page: Page) {
  await fillBasket(page);
  await cartLink(page).click();
  await page.getByRole("link", { name: "Continue to checkout", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Checkout (1) items");
}

async function fillCard(page: Page, number: string) {
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiry (MM / YY)").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  await page.getByLabel("Postal code").fill("1000");
}

for (const [label, viewport] of Object.entries(viewports)) {
  test.describe(`every state passes axe at ${label} width (${viewport.width} px)`, () => {
    test.use({ viewport });

    test("cart, empty", async ({ page }) => {
      await open(page, "/cart");
      await expect(page.getByText("Oops! No item in your cart.")).toBeVisible();
      await expectNoSeriousViolations(page);
    });

    test("language and 404", async ({ page }) => {
      await open(page, "/language");
      await expectNoSeriousViolations(page);
      await page.goto("/no-such-page");
      await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
      await expectNoSeriousViolations(page);
    });

    test("sign-in: plain, with a redirect message, and with an error", async ({ page }) => {
      await open(page, "/auth");
      await expectNoSeriousViolations(page);
      await open(page, "/auth?redirectTo=%2Fpayment");
      await expect(page.getByText("You must log in to pay")).toBeVisible();
      await expectNoSeriousViolations(page);
      await submitAuth(page, uniqueEmail("nobody"), PASSWORD, "Sign In");
      await expect(page.getByRole("main").getByRole("alert")).toHaveText("Invalid email or password");
      await expectNoSeriousViolations(page);
    });

    test("checkout: card field empty, with an inline error, and after a decline", async ({ page }) => {
      await registerAccount(page);
      await toCheckout(page);
      await expectNoSeriousViolations(page);
      await page.getByLabel("Card number").fill("4242 42");
      await page.getByLabel("Card number").blur();
      await expect(page.locator("#card-error")).toHaveText("Your card number is incomplete.");
      await expectNoSeriousViolations(page);
      await fillCard(page, "4000 0000 0000 0002");
      await page.getByRole("button", { name: "Pay Now", exact: true }).click();
      // The decline is announced: it arrives in an alert.
      await expect(page.getByRole("main").getByRole("alert").filter({ hasText: "Your card was declined." })).toBeVisible();
      await expectNoSeriousViolations(page);
    });

    test("orders: none yet, and one placed", async ({ page }) => {
      await registerAccount(page);
      await open(page, "/orders");
      await expect(page.getByText("You don't have orders yet.")).toBeVisible();
      await expectNoSeriousViolations(page);
      await toCheckout(page);
      await fillCard(page, "4242 4242 4242 4242");
      await page.getByRole("button", { name: "Pay Now", exact: true }).click();
      await expect(page.getByRole("article", { name: /^Order pi_/ })).toHaveCount(1);
      await expectNoSeriousViolations(page);
    });
  });
}

test("the sign-in form, the checkout and the header's Sign Out work from the keyboard, with a visible focus ring", async ({ page }) => {
  const email = uniqueEmail("keys");
  await open(page, "/auth");
  await page.getByLabel("Email", { exact: true }).focus();
  const ring = async () => page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
  expect(await ring()).not.toBe("none");
  await page.keyboard.type(email);
  await page.keyboard.press("Tab");
  await page.keyboard.type(PASSWORD);
  // Tab to the two buttons: Sign In first, then the notice's three links, then Create your account.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Sign In", exact: true })).toBeFocused();
  expect(await ring()).not.toBe("none");
  for (const link of ["Conditions of Use", "Privacy Notice", "Cookies Notice"]) {
    await page.keyboard.press("Tab");
    await expect(page.getByRole("main").getByRole("link", { name: link, exact: true })).toBeFocused();
  }
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Create your account", exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("banner").getByText(`Hello ${email.split("@")[0]}`)).toBeVisible();

  const signOut = page.getByRole("banner").getByRole("button", { name: "Sign Out", exact: true });
  await signOut.focus();
  expect(await ring()).not.toBe("none");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("banner").getByRole("link", { name: "Hello, Sign In Account & Lists" })).toBeVisible();
});
