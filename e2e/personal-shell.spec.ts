// Signed-in pages come from personal shells (server/page-cache/personal-shells.ts): the page rendered once
// for a placeholder user, filled with the visitor's name and data per response. These journeys
// check that React takes such a page over as it is (no hydration mismatch, no error), that the
// header shows the visitor, and that the app works from there.
import type { Page } from "@playwright/test";
import { expect, open, registerAccount, signInAsAdmin, test, waitForHydration } from "./support.ts";

/**
 * Marks the server's header element before React hydrates: a page React had to render again on
 * the client (what it does on a mismatch) has a new header without the mark.
 */
async function markServerHeader(page: Page) {
  await page.addInitScript(() => {
    document.addEventListener("readystatechange", () => {
      const header = document.querySelector("header");
      if (document.readyState === "interactive" && header) header.dataset.fromServer = "yes";
    });
    // React reports a recoverable hydration error through reportError: make it visible as a console error.
    window.addEventListener("error", (event) => console.error(`window error: ${event.message}`));
  });
}

test("a customer's page from a shell hydrates as it is, shows them, and navigates on", async ({ page, pageErrors }) => {
  const email = await registerAccount(page);
  const name = email.split("@")[0]!;
  await markServerHeader(page);
  for (const expected of ["miss", "hit"]) {
    const response = await open(page, "/products/3?from=shell-journey");
    expect(response?.headers()["x-page-shell"]).toBe(expected);
    expect(response?.headers()["cache-control"]).toBe("private, no-store");
  }
  const banner = page.getByRole("banner");
  await expect(banner.getByText(`Hello ${name}`, { exact: true })).toBeVisible();
  await expect(banner.getByRole("button", { name: "Sign Out" })).toBeVisible();
  await expect(banner.getByRole("link", { name: "Admin" })).toHaveCount(0);
  await expect(page.locator("header[data-from-server=yes]")).toHaveCount(1);

  // Client navigation from the filled page: a category, then the shopper's own orders.
  await page.getByRole("link", { name: "Storefront home" }).click();
  await expect(page).toHaveURL("/");
  await banner.getByRole("link", { name: "Returns & Orders" }).click();
  await expect(page).toHaveURL("/orders");
  await expect(page.getByRole("heading", { level: 1, name: "Your Orders" })).toBeVisible();
  await expect(banner.getByText(`Hello ${name}`, { exact: true })).toBeVisible();
  expect(pageErrors).toEqual([]);
});

test("an admin's page from a shell shows the Admin link and leads to the back office", async ({ page, pageErrors }) => {
  await signInAsAdmin(page);
  await markServerHeader(page);
  await open(page, "/results/electronics");
  const response = await open(page, "/results/electronics");
  expect(response?.headers()["x-page-shell"]).toBe("hit");
  const banner = page.getByRole("banner");
  await expect(banner.getByText("Hello admin", { exact: true })).toBeVisible();
  await expect(page.locator("header[data-from-server=yes]")).toHaveCount(1);
  await banner.getByRole("link", { name: "Admin" }).click();
  await expect(page).toHaveURL("/admin");
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect(pageErrors).toEqual([]);
});
