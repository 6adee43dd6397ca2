import { expect, expectNoSeriousViolations, open, PASSWORD, registerAccount, submitAuth, test, viewports } from "./support.ts";
import { mailTo, resetLinkFor } from "./mail.ts";

const NEW_PASSWORD = "a brand new password";
const ANSWER = "If an account exists for that email, we sent a link to reset the password.";

test("forgot password: the link from the outbox sets a new password, signs in, signs the other browser out, and the old password is refused", async ({
  page,
  browser,
  pageErrors,
}) => {
  const header = (p = page) => p.getByRole("banner");
  const email = await registerAccount(page);
  const greeting = `Hello ${email.split("@")[0]}`;

  // Another browser, signed in to the same account.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await open(otherPage, "/auth");
  await submitAuth(otherPage, email, PASSWORD, "Sign In");
  await expect(header(otherPage).getByText(greeting, { exact: true })).toBeVisible();

  await header().getByRole("button", { name: "Sign Out", exact: true }).click();
  await expect(header().getByRole("link", { name: "Hello, Sign In Account & Lists", exact: true })).toBeVisible();
  await open(page, "/auth");
  await page.getByRole("link", { name: "Forgot your password?", exact: true }).click();
  await expect(page).toHaveURL(/\/auth\/forgot$/);
  await expect(page.getByRole("heading", { level: 1, name: "Forgot your password?" })).toBeVisible();
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByRole("button", { name: "Send reset link", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: ANSWER })).toHaveText(ANSWER);

  // The link, read from the mail the server wrote to its outbox.
  await expect.poll(() => resetLinkFor(email), { timeout: 10_000 }).not.toBeNull();
  const link = (await resetLinkFor(email))!;
  expect((await mailTo(email)).filter((m) => m.subject === "Reset your Storefront password")).toHaveLength(1);
  const { pathname, search } = new URL(link);
  await open(page, `${pathname}${search}`);
  await expect(page.getByRole("heading", { level: 1, name: "Choose a new password" })).toBeVisible();
  await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Save new password", exact: true }).click();

  // Signed in with the new password, on the home page.
  await expect(page).toHaveURL(/\/$/);
  await expect(header().getByText(greeting, { exact: true })).toBeVisible();

  // The other browser's session has ended.
  await open(otherPage, "/orders");
  await expect(otherPage).toHaveURL(/\/auth\?redirectTo=%2Forders$/);
  await expect(header(otherPage).getByRole("link", { name: "Hello, Sign In Account & Lists", exact: true })).toBeVisible();

  // The old password is refused there; the new one works.
  await open(otherPage, "/auth");
  await submitAuth(otherPage, email, PASSWORD, "Sign In");
  await expect(otherPage.getByRole("main").getByRole("alert")).toHaveText("Invalid email or password");
  await submitAuth(otherPage, email, NEW_PASSWORD, "Sign In");
  await expect(header(otherPage).getByText(greeting, { exact: true })).toBeVisible();

  // The link worked once.
  await open(page, `${pathname}${search}`);
  await expect(page.getByRole("alert")).toHaveText("This password reset link has expired or has already been used. Ask for a new one below.");
  await expect(page.getByLabel("New password", { exact: true })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Send me a new link", exact: true })).toHaveAttribute("href", "/auth/forgot");
  await other.close();
  expect(pageErrors).toEqual([]);
});

test("an email with no account gets the same answer and no mail", async ({ page, pageErrors }) => {
  const email = `nobody.${Date.now()}@example.com`;
  await open(page, "/auth/forgot");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByRole("button", { name: "Send reset link", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: ANSWER })).toHaveText(ANSWER);
  expect(await mailTo(email)).toEqual([]);
  expect(pageErrors).toEqual([]);
});

for (const [label, viewport] of Object.entries(viewports)) {
  test(`the forgot and reset pages pass axe at ${label} width (${viewport.width} px), with nothing overflowing`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const fits = async () => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await open(page, "/auth/forgot");
    await expectNoSeriousViolations(page);
    await page.getByLabel("Email", { exact: true }).fill(`nobody.${Date.now()}@example.com`);
    await page.getByRole("button", { name: "Send reset link", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: ANSWER })).toBeVisible();
    await expectNoSeriousViolations(page);
    await fits();
    await open(page, "/auth/reset?token=not-a-token");
    await expect(page.getByRole("alert")).toContainText("has expired or has already been used");
    await expectNoSeriousViolations(page);
    await fits();
  });
}
