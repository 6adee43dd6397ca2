// The first load's styles and scripts: the stylesheet is inline in the server-rendered head, so it
// styles the first paint, survives hydration and serves every later page change.
import type { Page } from "@playwright/test";
import { expect, open, test, waitForHydration } from "./support.ts";

const PAGE_BACKGROUND = "rgb(234, 237, 237)";
const TOP_BAR = "rgb(19, 25, 33)";

async function expectStyled(page: Page) {
  await expect(page.locator("head style")).toHaveCount(1);
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(PAGE_BACKGROUND);
  await expect(page.locator(".header__top")).toHaveCSS("background-color", TOP_BAR);
}

test("pages are styled before any script runs", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  for (const path of ["/", "/products/1", "/results/electronics", "/cart", "/auth"]) {
    await page.goto(path);
    await expectStyled(page);
  }
  await context.close();
});

test("the inline stylesheet stays through hydration and page changes, with no stylesheet or script fetched twice", async ({ page, pageErrors }) => {
  const requests: string[] = [];
  page.on("request", (request) => {
    if (["stylesheet", "script"].includes(request.resourceType())) requests.push(`${request.resourceType()} ${new URL(request.url()).pathname}`);
  });
  await open(page, "/");
  await expectStyled(page);

  await page.getByRole("banner").locator('a[href="/cart"]').click();
  await expect(page.getByRole("heading", { level: 1, name: /Your shopping basket/ })).toBeVisible();
  await expectStyled(page);

  await page.getByRole("banner").getByRole("link", { name: /Sign In/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sign In" })).toBeVisible();
  await expectStyled(page);

  await page.goBack();
  await page.goBack();
  await waitForHydration(page);
  await expect(page.getByRole("region", { name: "All products" })).toBeVisible();
  await expectStyled(page);

  expect(requests.filter((r) => r.startsWith("stylesheet"))).toEqual([]);
  expect(requests.length).toBeGreaterThan(2);
  expect(new Set(requests).size).toBe(requests.length);
  // Console errors, page errors and CSP violations (an inline style without the response's nonce would be one).
  expect(pageErrors).toEqual([]);
});

test("the page paints before its hydration code is fetched, and then hydrates", async ({ page, pageErrors }) => {
  for (const path of ["/", "/products/1", "/auth"]) {
    await open(page, path);
    const timings = await page.evaluate(() => ({
      paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime,
      modules: performance
        .getEntriesByType("resource")
        .filter((entry) => new URL(entry.name).pathname.startsWith("/assets/") && entry.name.endsWith(".js"))
        .map((entry) => entry.startTime),
    }));
    expect(timings.paint, path).toBeGreaterThan(0);
    expect(timings.modules.length, path).toBeGreaterThan(1);
    expect(Math.min(...timings.modules), path).toBeGreaterThan(timings.paint!);
  }
  expect(pageErrors).toEqual([]);
});
