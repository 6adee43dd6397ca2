import { expect, expectNoSeriousViolations, open, registerAccount, signInAsAdmin, test, viewports } from "./support.ts";

// The back office is there for admins only; to anyone else it does not exist.

for (const who of ["an anonymous visitor", "a customer"] as const) {
  test(`${who} gets the shop's 404 on /admin and on the back office's API`, async ({ page }) => {
    if (who === "a customer") await registerAccount(page);
    for (const address of ["/admin", "/admin/audit", "/admin/products", "/admin/products/1", "/admin/orders", "/admin/orders/pi_x", "/admin/mail"]) {
      const response = await page.goto(address);
      expect(response?.status(), address).toBe(404);
      await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    }
    await expect(page.getByRole("banner").getByRole("link", { name: "Admin" })).toHaveCount(0);
    for (const address of ["/api/admin/products", "/api/admin/orders", "/api/admin/mail", "/api/admin/audit"]) {
      const response = await page.request.get(address);
      expect(response.status(), address).toBe(404);
      expect(await response.json()).toEqual({ error: `No API endpoint GET ${address}.` });
    }
  });
}

test("an admin reaches the back office from the header, by keyboard, and reads the audit log", async ({ page, pageErrors }) => {
  await signInAsAdmin(page);
  await open(page, "/");
  const link = page.getByRole("banner").getByRole("link", { name: "Admin", exact: true });
  await link.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole("heading", { level: 1, name: "Back office" })).toBeVisible();
  const nav = page.getByRole("navigation", { name: "Back office" });
  await nav.getByRole("link", { name: "Audit log" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Audit log" })).toHaveAttribute("aria-current", "page");
  await expectNoSeriousViolations(page);
  expect(pageErrors).toEqual([]);
});

for (const [name, viewport] of Object.entries(viewports)) {
  test(`the back office fits a ${name} screen`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await signInAsAdmin(page);
    await open(page, "/admin");
    await expect(page.getByRole("navigation", { name: "Back office" })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    await expectNoSeriousViolations(page);
  });
}
