import type { Page } from "@playwright/test";
import {
  card,
  expect,
  expectCartCount,
  expectRed,
  expectSignInFor,
  open,
  PASSWORD,
  products,
  registerAccount,
  submitAuth,
  test,
  uniqueEmail,
  viewports,
} from "./support.ts";

const header = (page: Page) => page.getByRole("banner");
const greeting = (page: Page, email: string) => header(page).getByText(`Hello ${email.split("@")[0]}`, { exact: true });
const signedOutAccount = (page: Page) => header(page).getByRole("link", { name: "Hello, Sign In Account & Lists", exact: true });
const signOutButton = (page: Page) => header(page).getByRole("button", { name: "Sign Out", exact: true });
const authError = (page: Page) => page.getByRole("main").getByRole("alert");

test("register, see Hello {name} without a link, sign out, sign in again", async ({ page, pageErrors }) => {
  const email = uniqueEmail("ada");
  await open(page, "/auth");
  await expect(page.getByRole("heading", { level: 1, name: "Sign In" })).toBeVisible();
  await expect(page.getByLabel("Email", { exact: true })).toHaveAttribute("type", "email");
  await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("type", "password");
  await expect(page.getByText(/agree to Storefront's Conditions of Use/)).toBeVisible();

  await submitAuth(page, email, PASSWORD, "Create your account");
  await expect(page).toHaveURL(/\/$/);
  await expect(greeting(page, email)).toBeVisible();
  // "with no link destination": the greeting is plain text, not a link.
  await expect(header(page).getByRole("link", { name: /Hello/ })).toHaveCount(0);
  await expect(signedOutAccount(page)).toHaveCount(0);

  await signOutButton(page).click();
  await expect(signedOutAccount(page)).toBeVisible();
  await expect(greeting(page, email)).toHaveCount(0);
  // The session is gone on the server too: a fresh load is still signed out.
  await open(page, "/");
  await expect(signedOutAccount(page)).toBeVisible();

  await signedOutAccount(page).click();
  await expect(page).toHaveURL(/\/auth$/);
  await submitAuth(page, email, PASSWORD, "Sign In");
  await expect(page).toHaveURL(/\/$/);
  await expect(greeting(page, email)).toBeVisible();
  expect(pageErrors).toEqual([]);
});

test("a wrong password shows the provider's message in red and stays on /auth", async ({ page }) => {
  const email = await registerAccount(page);
  await signOutButton(page).click();
  await expect(signedOutAccount(page)).toBeVisible();
  await open(page, "/auth");
  await submitAuth(page, email, "not my password", "Sign In");
  await expect(authError(page)).toHaveText("Invalid email or password");
  await expectRed(authError(page));
  await expect(page).toHaveURL(/\/auth$/);
  await expect(signedOutAccount(page)).toBeVisible();
  // The message sits below the form.
  const form = await page.getByRole("button", { name: "Create your account" }).boundingBox();
  const message = await authError(page).boundingBox();
  expect(message!.y).toBeGreaterThan(form!.y + form!.height);
});

test("registering an email that already has an account shows the provider's message", async ({ page }) => {
  const email = await registerAccount(page);
  await signOutButton(page).click();
  await expect(signedOutAccount(page)).toBeVisible();
  await open(page, "/auth");
  await submitAuth(page, email, PASSWORD, "Create your account");
  await expect(authError(page)).toHaveText("User already exists. Use another email.");
  await expect(page).toHaveURL(/\/auth$/);
});

test("each button shows a small spinner and both are disabled while the request runs", async ({ page }) => {
  const email = uniqueEmail();
  await open(page, "/auth");
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/auth.data*", async (route) => {
    await held;
    await route.continue();
  });
  await submitAuth(page, email, PASSWORD, "Create your account");
  const create = page.getByRole("button", { name: /Create your account/ });
  await expect(create.getByRole("status")).toHaveText("Creating your account");
  await expect(create).toBeDisabled();
  await expect(page.getByRole("button", { name: "Sign In", exact: true })).toBeDisabled();
  release();
  await expect(greeting(page, email)).toBeVisible();
});

for (const { path, message, link } of [
  { path: "/payment", message: "You must log in to pay", link: null },
  { path: "/orders", message: "You must log in to access your orders", link: "Returns & Orders" },
]) {
  test(`${path}: a direct load sends an anonymous visitor to sign in and back to ${path} after`, async ({ page, pageErrors }) => {
    const email = await registerAccount(page);
    await signOutButton(page).click();
    await expect(signedOutAccount(page)).toBeVisible();

    await open(page, path);
    await expectSignInFor(page, path, message);
    await submitAuth(page, email, PASSWORD, "Sign In");
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(greeting(page, email)).toBeVisible();
    expect(pageErrors).toEqual([]);
  });

  if (link) {
    test(`${path}: a click inside the app leads through sign-in and back to ${path}`, async ({ page }) => {
      const email = await registerAccount(page);
      await signOutButton(page).click();
      await expect(signedOutAccount(page)).toBeVisible();
      await header(page).getByRole("link", { name: link, exact: true }).click();
      await expectSignInFor(page, path, message);
      await submitAuth(page, email, PASSWORD, "Sign In");
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByRole("heading", { level: 1, name: "Your Orders" })).toBeVisible();
    });
  }
}

test("the checkout link leads through sign-in back to /payment with the basket kept", async ({ page }) => {
  const email = await registerAccount(page);
  await signOutButton(page).click();
  await expect(signedOutAccount(page)).toBeVisible();
  const product = products[1]!;
  await card(page, product).getByRole("button", { name: "Add to cart", exact: true }).click();
  await expectCartCount(page, 1);
  await header(page).getByRole("link", { name: /^Cart/ }).click();
  await page.getByRole("link", { name: "Continue to checkout", exact: true }).click();
  await expectSignInFor(page, "/payment", "You must log in to pay");
  await submitAuth(page, email, PASSWORD, "Sign In");
  await expect(page).toHaveURL(/\/payment$/);
  await expectCartCount(page, 1);
  // And it survives signing out again within the visit.
  await signOutButton(page).click();
  await expect(signedOutAccount(page)).toBeVisible();
  await expectCartCount(page, 1);
});

test("a reload keeps the session, and the server's own HTML greets the user", async ({ page, context }) => {
  const email = await registerAccount(page);
  await page.reload();
  await expect(greeting(page, email)).toBeVisible();
  // The raw document, as the server sends it before any script runs, with the session cookie.
  const cookies = await context.cookies();
  const session = cookies.find((c) => c.name === "storefront.session_token");
  expect(session?.httpOnly).toBe(true);
  expect(session?.sameSite).toBe("Lax");
  const raw = await page.request.get("/products/1");
  const html = await raw.text();
  expect(html).toContain(`Hello <!-- -->${email.split("@")[0]}`);
  expect(html).toContain(">Sign Out</button>");
  expect(html).not.toContain("Hello, Sign In");
});

test("a signed-in visitor can still use /auth to sign in as someone else", async ({ page }) => {
  const first = await registerAccount(page, uniqueEmail("first"));
  const second = await registerAccount(page, uniqueEmail("second"));
  await expect(greeting(page, first)).toHaveCount(0);
  await open(page, "/auth");
  await submitAuth(page, first, PASSWORD, "Sign In");
  await expect(greeting(page, first)).toBeVisible();
  await expect(greeting(page, second)).toHaveCount(0);
});

test("the signed-in header fits a phone screen", async ({ page }) => {
  await page.setViewportSize(viewports.phone);
  const email = await registerAccount(page, uniqueEmail("averyveryverylongname"));
  await expect(greeting(page, email)).toBeVisible();
  await expect(signOutButton(page)).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBe(0);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the sign-in form and Sign Out still work", async ({ page }) => {
    const email = uniqueEmail("nojs");
    await page.goto("/auth?redirectTo=%2Forders");
    await submitAuth(page, email, PASSWORD, "Create your account");
    await expect(page).toHaveURL(/\/orders$/);
    await expect(greeting(page, email)).toBeVisible();
    await signOutButton(page).click();
    await expect(signedOutAccount(page)).toBeVisible();
  });
});
