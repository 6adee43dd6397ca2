import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Browser, Page } from "@playwright/test";
import { mailTo } from "./mail.ts";
import { expect, expectNoSeriousViolations, formatCents, open, pay, productById, registerAccount, test, toCents, viewports } from "./support.ts";

// The back office's orders, refunds and mail, as an admin and a shopper see them.

const run = promisify(execFile);

/** Makes an account an admin as an operator does (`npm run admin -- grant`), on the journeys' server's database. */
async function grantAdmin(email: string): Promise<void> {
  await run("node_modules/.bin/tsx", ["server/admin/cli.ts", "grant", email], { env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, LOG_LEVEL: "warn" } });
}

/** A signed-in admin in a browser context of their own. */
async function adminPage(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  const email = await registerAccount(page);
  await grantAdmin(email);
  return page;
}

test("an admin refunds one line and the shopper's open orders page shows it without a reload", async ({ browser, page, pageErrors }) => {
  test.slow(); // two accounts, the admin command and two browsers on a shared machine
  const shopper = await registerAccount(page);
  const orderId = await pay(page, [
    { id: 2, amount: 2 },
    { id: 9, amount: 1 },
  ]);
  const feedOpen = page.waitForResponse((r) => r.url().includes("/api/orders/stream"));
  await open(page, "/orders");
  await feedOpen;
  const order = page.getByRole("article", { name: `Order ${orderId}` });
  await expect(order).toBeVisible();
  await expect(order.getByText(/^Refunded/)).toHaveCount(0);
  const loads: string[] = [];
  page.on("framenavigated", (frame) => frame === page.mainFrame() && loads.push(frame.url()));

  const admin = await adminPage(browser);
  await open(admin, `/admin/orders?email=${encodeURIComponent(shopper)}`);
  await expect(admin.getByRole("heading", { level: 1, name: "Orders" })).toBeVisible();
  // On screen the id is short (its kind and both ends); the order page gives it whole, to copy.
  const shortId = `${orderId.slice(0, 7)}…${orderId.slice(-4)}`;
  await admin.getByRole("link", { name: shortId, exact: true }).click();
  await expect(admin.getByRole("heading", { level: 1 })).toHaveText(`Order ${shortId}`);
  await expect(admin.getByText(orderId, { exact: true })).toBeVisible();
  await expect(admin.getByText(shopper, { exact: true })).toBeVisible();
  await expect(admin.getByText("Test gateway, visa ending in 4242", { exact: true })).toBeVisible();
  await expectNoSeriousViolations(admin);

  // One unit of the first line, by keyboard: type the units and the reason, Enter submits.
  const line = productById(2);
  await admin.getByLabel(`Units to refund of ${line.title}`).fill("1");
  await admin.getByLabel("Reason", { exact: true }).fill("Arrived broken");
  await admin.getByLabel("Reason", { exact: true }).press("Enter");
  const refunded = formatCents(toCents(line.price));
  await expect(admin.getByRole("status").filter({ hasText: /^Refund of/ })).toHaveText(`Refund of ${refunded} done.`);
  await expect(admin.getByRole("region", { name: "Refunds" })).toContainText("Arrived broken");

  // The shopper's page, live.
  await expect(order.getByText(`Refunded ${refunded}`, { exact: true })).toBeVisible();
  expect(loads).toEqual([]);
  await expectNoSeriousViolations(page);
  // And the shopper's refund mail, by its subject.
  const subject = `Your refund of ${refunded} for order ${orderId}`;
  await expect.poll(async () => (await mailTo(shopper)).map((mail) => mail.subject)).toContain(subject);
  await open(admin, "/admin/mail");
  await expect(admin.getByRole("region", { name: "Mail" }).getByRole("row").filter({ hasText: "Refund" }).first()).toContainText(shopper);
  expect(pageErrors).toEqual([]);
});

test("the back office's orders, order and mail screens fit a phone and pass axe", async ({ browser }) => {
  test.slow();
  const admin = await adminPage(browser);
  const orderId = await pay(admin, [{ id: 3, amount: 1 }]);
  await admin.setViewportSize(viewports.phone);
  for (const path of ["/admin/orders", `/admin/orders/${orderId}`, "/admin/mail"]) {
    await open(admin, path);
    const overflow = await admin.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, path).toBe(0);
    await expectNoSeriousViolations(admin);
  }
  // The status filter, by keyboard: choose and submit.
  await open(admin, "/admin/orders");
  await admin.getByLabel("Status").selectOption("refunded");
  await admin.getByRole("button", { name: "Filter" }).press("Enter");
  await expect(admin).toHaveURL(/status=refunded/);
  await expect(admin.getByText("No orders match.")).toBeVisible();
});
