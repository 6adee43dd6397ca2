import { expect, open, test } from "./support.ts";

// The footer on every page: Back to top, the Conditions of Use and the Privacy Notice, which the
// sign-in page's notice links too.

const NOTICES = [
  { name: "Conditions of Use", path: "/conditions-of-use" },
  { name: "Privacy Notice", path: "/privacy-notice" },
];

test("the footer's pages answer, with their headings", async ({ page, pageErrors }) => {
  for (const notice of NOTICES) {
    const response = await open(page, notice.path);
    expect(response?.status(), notice.path).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(notice.name);
    await expect(page).toHaveTitle(new RegExp(`^${notice.name}`));
  }
  await expect(page.getByRole("heading", { level: 2, name: "Cookies" })).toBeVisible();
  await expect(page.getByText("storefront.session_token", { exact: false })).toBeVisible();
  expect(pageErrors).toEqual([]);
});

test("every page has the footer, and the sign-in text links both notices", async ({ page, pageErrors }) => {
  for (const path of ["/", "/results/jewelery", "/products/1", "/search?q=ring", "/cart", "/auth", "/auth/forgot", "/language", "/no-such-page", ...NOTICES.map((n) => n.path)]) {
    await page.goto(path);
    const footer = page.getByRole("contentinfo");
    for (const notice of NOTICES) await expect(footer.getByRole("link", { name: notice.name, exact: true }), path).toHaveAttribute("href", notice.path);
    await expect(footer.getByRole("link", { name: "Back to top", exact: true }), path).toBeVisible();
  }
  await open(page, "/auth");
  const legal = page.getByRole("main").locator(".auth__legal");
  await expect(legal).toHaveText(/^By signing in or creating an account you agree to Storefront's Conditions of Use and Sale\. Please see our\s+Privacy Notice/);
  await legal.getByRole("link", { name: "Privacy Notice", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Privacy Notice");
  await open(page, "/auth");
  await page.getByRole("main").getByRole("link", { name: "Conditions of Use", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Conditions of Use");
  // The unknown address answers 404, as it should; the browser logs that.
  expect(pageErrors.filter((error) => !error.includes("404 (Not Found) (http://127.0.0.1:") || !error.endsWith("/no-such-page)"))).toEqual([]);
});

test("Back to top goes back to the top of a long page, by keyboard too", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await open(page, "/");
  const back = page.getByRole("contentinfo").getByRole("link", { name: "Back to top", exact: true });
  await back.focus();
  expect(await page.evaluate(() => scrollY)).toBeGreaterThan(1000);
  await page.keyboard.press("Enter");
  await expect.poll(() => page.evaluate(() => scrollY)).toBe(0);
});
