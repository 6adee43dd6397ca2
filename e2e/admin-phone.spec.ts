import type { Page } from "@playwright/test";
import { expect, formatCents, open, pay, productById, signInAsAdmin, test, toCents, viewports } from "./support.ts";

// The back office on a phone: every screen at 360 px, every action and every column's value on
// screen without scrolling sideways; and the refund form, which starts empty after a refund.

/** Every control and table cell that is shown, with how far it reaches past either side of the window (0: none). */
async function offScreen(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>("a, button, input, select, textarea, td, th:not(thead th)")) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || getComputedStyle(element).visibility === "hidden") continue;
      if (box.left < -0.5 || box.right > innerWidth + 0.5) found.push(`${element.tagName.toLowerCase()} "${(element.textContent ?? "").trim().slice(0, 40) || element.getAttribute("aria-label") || element.getAttribute("name")}" from ${Math.round(box.left)} to ${Math.round(box.right)} px`);
    }
    return found;
  });
}

test.describe("the back office at 360 px", () => {
  test.use({ viewport: viewports.phone });

  test("every screen fits: nothing scrolls sideways, every action and value is on screen", async ({ page, pageErrors }) => {
    test.slow();
    await signInAsAdmin(page);
    await open(page, "/");
    const orderId = await pay(page, [{ id: 7, amount: 1 }]);
    for (const path of ["/admin", "/admin/products", "/admin/products/new", "/admin/products/import", "/admin/products/7", "/admin/orders", `/admin/orders/${orderId}`, "/admin/mail", "/admin/audit"]) {
      await open(page, path);
      await expect(page.getByRole("navigation", { name: "Back office" }), path).toBeVisible();
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth - innerWidth), path).toBeLessThanOrEqual(0);
      expect(await offScreen(page), path).toEqual([]);
    }
    // The order page's refund inputs in particular, once per line.
    await open(page, `/admin/orders/${orderId}`);
    const units = page.getByLabel(`Units to refund of ${productById(7).title}`);
    await units.scrollIntoViewIfNeeded();
    await expect(units).toBeInViewport();
    expect(pageErrors).toEqual([]);
  });

  test("the refund form is empty again after a refund, and says what was refunded", async ({ page, pageErrors }) => {
    test.slow();
    await signInAsAdmin(page);
    await open(page, "/");
    const orderId = await pay(page, [
      { id: 2, amount: 2 },
      { id: 9, amount: 1 },
    ]);
    await open(page, `/admin/orders/${orderId}`);
    const units = page.getByLabel(`Units to refund of ${productById(2).title}`);
    const reason = page.getByLabel("Reason", { exact: true });
    const restock = page.getByLabel("Put the units back in stock");
    await units.fill("1");
    await reason.fill("Arrived broken");
    await restock.check();
    await page.getByRole("button", { name: "Refund selected units", exact: true }).click();
    const refunded = formatCents(toCents(productById(2).price));
    const notice = page.getByRole("status").filter({ hasText: /^Refund of/ });
    await expect(notice).toHaveText(`Refund of ${refunded} done.`);
    await expect(notice).toHaveClass(/admin-notice/);
    await expect(page.getByRole("region", { name: "Refunds" })).toContainText("Arrived broken");
    // Empty again: one more click cannot refund the same units twice.
    await expect(units).toHaveValue("0");
    await expect(reason).toHaveValue("");
    await expect(restock).not.toBeChecked();
    await page.getByRole("button", { name: "Refund selected units", exact: true }).click();
    await expect(reason).toBeFocused(); // the browser asks for the reason first; nothing is sent
    await expect(page.getByRole("region", { name: "Refunds" }).getByRole("row")).toHaveCount(2); // its header row and the one refund
    expect(pageErrors).toEqual([]);
  });
});
