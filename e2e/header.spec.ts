import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { cartLink, expect, expectCartCount, open, test, viewports } from "./support.ts";

const STRIP = ["All", "Today's Deal", "Customer Service", "Registry", "Gift Cards", "Sell"];

/** Every part of the header, found the way a visitor finds it: by its name or visible text. */
function headerParts(page: Page) {
  const header = page.getByRole("banner");
  const search = header.getByRole("search");
  // The lower strip is the only part of the header that says "Today's Deal".
  const strip = header.locator("div").filter({ hasText: "Today's Deal" });
  return {
    header,
    strip,
    logo: header.getByRole("link", { name: "Storefront home", exact: true }),
    deliverTo: header.getByText("Deliver to", { exact: true }),
    ethiopia: header.getByText("Ethiopia", { exact: true }),
    search,
    scope: search.getByRole("combobox", { name: "Search in", exact: true }),
    searchBox: search.getByRole("combobox", { name: "Search Storefront", exact: true }),
    searchButton: search.getByRole("button", { name: "Search", exact: true }),
    language: header.getByRole("link", { name: "EN, language: English", exact: true }),
    account: header.getByRole("link", { name: "Hello, Sign In Account & Lists", exact: true }),
    orders: header.getByRole("link", { name: "Returns & Orders", exact: true }),
    cart: cartLink(page),
    stripItems: STRIP.map((text) => strip.getByText(text, { exact: true })),
  };
}

async function expectHeaderContent(page: Page) {
  const parts = headerParts(page);

  await expect(parts.logo).toHaveAttribute("href", "/");
  await expect(parts.logo.locator("img")).toBeVisible();

  await expect(parts.deliverTo).toBeVisible();
  await expect(parts.ethiopia).toBeVisible();

  await expect(parts.scope).toBeVisible();
  await expect(parts.scope).toHaveValue("All");
  await expect(parts.scope.locator("option")).toHaveText(["All"]);
  await expect(parts.searchBox).toBeEditable();
  await expect(parts.searchBox).toHaveAttribute("placeholder", "Search Storefront");
  await expect(parts.searchButton).toBeVisible();

  await expect(parts.language).toHaveAttribute("href", "/language");
  await expect(parts.language).toHaveText("EN");
  await expect(parts.language.locator("img")).toBeVisible();

  await expect(parts.account).toHaveAttribute("href", "/auth");
  await expect(parts.account.getByText("Hello, Sign In", { exact: true })).toBeVisible();
  await expect(parts.account.getByText("Account & Lists", { exact: true })).toBeVisible();

  await expect(parts.orders).toHaveAttribute("href", "/orders");
  await expect(parts.orders).toHaveText("Returns & Orders");

  await expect(parts.cart).toHaveAttribute("href", "/cart");
  await expectCartCount(page, 0);
  await expect(page.getByTestId("cart-count")).toBeVisible();

  await expect(parts.strip).toHaveCount(1);
  for (const item of parts.stripItems) await expect(item).toBeVisible();
  // The strip is plain text for now: none of its entries is a link.
  await expect(parts.strip.getByRole("link")).toHaveCount(0);
  return parts;
}

async function followCartLink(page: Page) {
  await cartLink(page).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByRole("heading", { level: 1, name: "Hello, Your shopping basket" })).toBeVisible();
  await expect(page.getByText("Oops! No item in your cart.")).toBeVisible();
}

test.describe("header at desktop width", () => {
  test.use({ viewport: viewports.desktop });

  test("shows every header element with its link, and the cart link opens the basket", async ({ page, pageErrors }, testInfo) => {
    await open(page, "/");
    await expectHeaderContent(page);
    await page.screenshot({ path: testInfo.outputPath("header-home-desktop.png"), fullPage: true });

    await followCartLink(page);
    await page.screenshot({ path: testInfo.outputPath("header-cart-desktop.png"), fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  test("header links keep readable text contrast while hovered", async ({ page }) => {
    await open(page, "/");
    const { logo, language, account, orders, cart } = headerParts(page);
    const problems: string[] = [];
    for (const [name, link] of Object.entries({ logo, language, account, orders, cart }) as [string, Locator][]) {
      await link.hover();
      const { violations } = await new AxeBuilder({ page }).include("header").withRules(["color-contrast"]).analyze();
      for (const violation of violations) {
        for (const node of violation.nodes) {
          const summary = (node.failureSummary ?? "").replace(/^Fix any of the following:\s*/, "").replace(/\s+/g, " ");
          problems.push(`hovering the ${name} link: ${node.target.join(" ")}: ${summary}`);
        }
      }
    }
    expect(problems, problems.join("\n")).toEqual([]);
  });
});

test.describe("header at 360 px width", () => {
  test.use({ viewport: viewports.phone });

  test("fits the narrow screen, shows every element and the cart link opens the basket", async ({ page, pageErrors }, testInfo) => {
    await open(page, "/");
    const parts = await expectHeaderContent(page);

    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth, "the page must not scroll sideways").toBeLessThanOrEqual(viewports.phone.width);

    const named: Record<string, Locator> = {
      logo: parts.logo,
      "Deliver to": parts.deliverTo,
      Ethiopia: parts.ethiopia,
      "Search in": parts.scope,
      "search box": parts.searchBox,
      "search button": parts.searchButton,
      language: parts.language,
      account: parts.account,
      orders: parts.orders,
      cart: parts.cart,
      "cart count": page.getByTestId("cart-count"),
      ...Object.fromEntries(STRIP.map((text, i) => [`strip "${text}"`, parts.stripItems[i]!])),
    };
    for (const [name, locator] of Object.entries(named)) {
      await expect(locator, `${name} is visible`).toBeVisible();
      const box = await locator.boundingBox();
      expect(box, `${name} has a box`).not.toBeNull();
      expect(box!.x, `${name} starts inside the screen`).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, `${name} ends inside the screen`).toBeLessThanOrEqual(viewports.phone.width);
    }
    await page.screenshot({ path: testInfo.outputPath("header-home-360.png"), fullPage: true });

    await followCartLink(page);
    await page.screenshot({ path: testInfo.outputPath("header-cart-360.png"), fullPage: true });
    expect(pageErrors).toEqual([]);
  });
});
