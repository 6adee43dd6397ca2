import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import { ownShop } from "./own-shop.ts";
import { expect, expectNoViolationsAtAll, open, test, viewports } from "./support.ts";

// A category of more than one page in the browser: page 2 and back by its Previous and Next links,
// and the order chosen without JavaScript, at phone and desktop width. It needs a category of 64
// products, loaded with `npm run catalogue -- import`, so it runs on a shop of its own.
const SHOTS = "test-results/list-pages";
const CATEGORY = "kitchen";
const COUNT = 64;
// "Kitchen item 01" costs $11.00, ..., "Kitchen item 64" $74.00.
const CSV = ["title,price,description,category,stock", ...Array.from({ length: COUNT }, (_, i) => `Kitchen item ${String(i + 1).padStart(2, "0")},${11 + i}.00,A kitchen thing.,${CATEGORY},20`)].join("\n");

const cards = (page: Page) => page.getByRole("main").getByRole("article");
const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}-${page.viewportSize()!.width}.png`, fullPage: true });

async function contextPage(browser: Browser, baseURL: string, viewport: { width: number; height: number }, javaScriptEnabled = true) {
  const context = await browser.newContext({ baseURL, viewport, javaScriptEnabled });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => void (message.type() === "error" && errors.push(message.text())));
  return { page, errors };
}

test.describe("on a shop of its own", () => {
  test.describe.configure({ mode: "default" });

  // On SQLite the catalogue is loaded while the shop is stopped (README: Loading a catalogue).
  const shop = ownShop("lists", {}, (dataDir) => {
    const file = path.join(dataDir, "kitchen.csv");
    fs.writeFileSync(file, CSV);
    execFileSync("npm", ["run", "--silent", "catalogue", "--", "import", file], { env: { ...process.env, DATA_DIR: dataDir }, stdio: "pipe" });
  });

  for (const [label, viewport] of Object.entries(viewports)) {
    test(`page 2 of a category and back at ${label} width`, async ({ browser }) => {
      const { page, errors } = await contextPage(browser, shop.url(), viewport);
      await open(page, `/results/${CATEGORY}`);
      await expect(cards(page)).toHaveCount(48);
      await expect(page).toHaveTitle(`Results for ${CATEGORY} | Storefront`);
      const pages = page.getByRole("navigation", { name: "Pages" });
      await expect(pages).toContainText("Page 1 of 2");
      await expect(pages.getByRole("link", { name: "Previous" })).toHaveCount(0);

      await pages.getByRole("link", { name: "Next" }).click();
      await expect(page).toHaveURL(new RegExp(`/results/${CATEGORY}\\?page=2$`));
      await expect(page).toHaveTitle(`Results for ${CATEGORY} – page 2 | Storefront`);
      await expect(cards(page)).toHaveCount(COUNT - 48);
      await expect(cards(page).first()).toHaveAccessibleName("Kitchen item 49");
      await expect(pages).toContainText("Page 2 of 2");
      await expect(pages.getByRole("link", { name: "Next" })).toHaveCount(0);
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth - innerWidth)).toBeLessThanOrEqual(0);
      await expectNoViolationsAtAll(page, "page 2 of a category");
      await shot(page, "page-2");

      await pages.getByRole("link", { name: "Previous" }).click();
      await expect(page).toHaveURL(new RegExp(`/results/${CATEGORY}$`));
      await expect(cards(page)).toHaveCount(48);
      await expect(cards(page).first()).toHaveAccessibleName("Kitchen item 01");
      // The browser's own Back returns to page 2.
      await page.goBack();
      await expect(page).toHaveURL(/\?page=2$/);
      await expect(cards(page).first()).toHaveAccessibleName("Kitchen item 49");

      // Hydrated, choosing an order sorts at once, from page 1.
      await page.getByLabel("Sort by").selectOption({ label: "Price: High to Low" });
      await expect(page).toHaveURL(new RegExp(`/results/${CATEGORY}\\?sort=price-desc$`));
      await expect(cards(page).first()).toHaveAccessibleName("Kitchen item 64");
      await expect(page).toHaveTitle(`Results for ${CATEGORY} | Storefront`);
      expect(errors).toEqual([]);
    });

    test(`sorting a category without JavaScript at ${label} width`, async ({ browser }) => {
      const { page, errors } = await contextPage(browser, shop.url(), viewport, false);
      await page.goto(`/results/${CATEGORY}`);
      await page.getByLabel("Sort by").selectOption({ label: "Price: High to Low" });
      await page.getByRole("button", { name: "Sort", exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`/results/${CATEGORY}\\?sort=price-desc$`));
      await expect(page.getByLabel("Sort by")).toHaveValue("price-desc");
      await expect(cards(page).first()).toHaveAccessibleName("Kitchen item 64");
      await expect(cards(page).first()).toContainText("$74.00");
      await shot(page, "sorted");

      // The pages keep the order.
      await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Next" }).click();
      await expect(page).toHaveURL(new RegExp(`/results/${CATEGORY}\\?sort=price-desc&page=2$`));
      await expect(cards(page)).toHaveCount(COUNT - 48);
      await expect(cards(page).first()).toHaveAccessibleName("Kitchen item 16");
      await expect(cards(page).last()).toHaveAccessibleName("Kitchen item 01");
      await expect(page.getByLabel("Sort by")).toHaveValue("price-desc");
      await shot(page, "sorted-page-2");
      expect(errors).toEqual([]);
    });
  }
});
