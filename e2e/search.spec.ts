import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { expect, open, productById, products, test, viewports } from "./support.ts";

// The header's search, the /search results page and the suggestions while typing.

const RUCKSACK = productById(1);
const HEADPHONES = productById(16);
const LAPTOP = productById(17);

const searchBox = (page: Page): Locator =>
  page.getByRole("banner").getByRole("search").getByRole("combobox", { name: "Search Storefront", exact: true });
const suggestions = (page: Page): Locator => page.getByRole("listbox", { name: "Suggestions", exact: true });
const resultCards = (page: Page): Locator => page.getByRole("main").getByRole("article");
const heading = (page: Page): Locator => page.getByRole("main").getByRole("heading", { level: 1 });

/** Types into the header's box as a shopper does: focus first (that loads the suggestions), clear, type. */
async function typeInSearch(page: Page, text: string) {
  await searchBox(page).click();
  await searchBox(page).clear();
  await searchBox(page).pressSequentially(text);
}

async function expectRucksackResults(page: Page) {
  await expect(page).toHaveURL(/\/search\?q=rucksak$/);
  await expect(heading(page)).toHaveText('1 result for "rucksak"');
  await expect(resultCards(page)).toHaveCount(1);
  await expect(resultCards(page).first()).toHaveAccessibleName(RUCKSACK.title);
  // The card of the category results: no add button. The matched word is marked in the title.
  await expect(resultCards(page).first().getByRole("button", { name: "Add to cart" })).toHaveCount(0);
  await expect(resultCards(page).first().locator("mark")).toHaveText(["Rucksack"]);
  await expect(page).toHaveTitle('Results for "rucksak" | Storefront');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
  await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", 'Products at Storefront matching "rucksak".');
}

test.describe("header search", () => {
  test("a misspelt word and Enter open the results page with the rucksack first", async ({ page, pageErrors }) => {
    await open(page, "/");
    await typeInSearch(page, "rucksak");
    await searchBox(page).press("Enter");
    await expectRucksackResults(page);
    // The box keeps what was searched.
    await expect(searchBox(page)).toHaveValue("rucksak");
    expect(pageErrors).toEqual([]);
  });

  test("results put title matches above description-only ones, and a word's beginning is enough", async ({ page, pageErrors }) => {
    await open(page, "/search?q=lapt");
    await expect(heading(page)).toHaveText('2 results for "lapt"');
    // The rucksack's description mentions a laptop sleeve; the laptop has the word in its title.
    await expect(resultCards(page)).toHaveCount(2);
    await expect(resultCards(page).nth(0)).toHaveAccessibleName(LAPTOP.title);
    await expect(resultCards(page).nth(1)).toHaveAccessibleName(RUCKSACK.title);
    await expect(resultCards(page).nth(0).locator("mark")).toHaveText(["Laptop"]);
    await expect(resultCards(page).nth(1).locator("mark")).toHaveCount(0);
    expect(pageErrors).toEqual([]);
  });

  test("suggests products while typing; the keyboard picks one and opens it", async ({ page, pageErrors }) => {
    const asked: URL[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/search") asked.push(new URL(request.url()));
    });
    await open(page, "/");
    const box = searchBox(page);
    await expect(box).toHaveAttribute("aria-expanded", "false");
    await typeInSearch(page, "head");

    const list = suggestions(page);
    await expect(list.getByRole("option")).toHaveText([HEADPHONES.title]);
    await expect(box).toHaveAttribute("aria-expanded", "true");
    await expect(box).toHaveAttribute("aria-controls", (await list.getAttribute("id"))!);
    // Typing is debounced: the answer shown is for the whole word, asked with the suggestion limit.
    expect(asked.at(-1)?.searchParams.get("q")).toBe("head");
    expect(asked.every((url) => url.searchParams.get("limit") === "6")).toBe(true);

    // Escape closes the list and keeps the text; Down opens it again on the first option.
    await box.press("Escape");
    await expect(list).toBeHidden();
    await expect(box).toHaveAttribute("aria-expanded", "false");
    await expect(box).toHaveValue("head");
    await box.press("ArrowDown");
    const option = list.getByRole("option", { name: HEADPHONES.title, exact: true });
    await expect(option).toHaveAttribute("aria-selected", "true");
    await expect(box).toHaveAttribute("aria-activedescendant", (await option.getAttribute("id"))!);
    await expect(box).toBeFocused();

    await box.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/products/${HEADPHONES.id}$`));
    await expect(page.getByRole("main").getByRole("heading", { level: 1, name: HEADPHONES.title, exact: true })).toBeVisible();
    await expect(list).toBeHidden();
    expect(pageErrors).toEqual([]);
  });

  test("Up and Down move through several suggestions and wrap around", async ({ page, pageErrors }) => {
    await open(page, "/");
    const box = searchBox(page);
    // One input event, so one request: typed key by key on a slow machine, the list for "jacke"
    // could be shown first, and the answer for "jacket" arrive after the first key below and
    // start the highlight again (new suggestions start without one, as they should).
    await box.fill("jacket");
    const options = suggestions(page).getByRole("option");
    const jackets = products.filter((p) => /jacket/i.test(p.title));
    await expect(options).toHaveCount(jackets.length);
    const selected = suggestions(page).locator('[aria-selected="true"]');
    await box.press("ArrowDown");
    await expect(selected).toHaveText(await options.nth(0).innerText());
    await box.press("ArrowDown");
    await expect(selected).toHaveText(await options.nth(1).innerText());
    await box.press("ArrowUp");
    await box.press("ArrowUp");
    await expect(selected).toHaveText(await options.nth(jackets.length - 1).innerText());
    await box.press("ArrowDown");
    await expect(selected).toHaveText(await options.nth(0).innerText());
    expect(pageErrors).toEqual([]);
  });

  test("the first page load carries no search code; the first focus of the box fetches it", async ({ page, pageErrors }) => {
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script" || /\.js$/.test(new URL(request.url()).pathname)) scripts.push(request.url());
    });
    await open(page, "/");
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((url) => /Suggestions|search/i.test(url))).toEqual([]);
    const loaded = page.waitForRequest((request) => /\/assets\/Suggestions-[\w-]+\.js$/.test(request.url()));
    await searchBox(page).focus();
    await loaded;
    expect(pageErrors).toEqual([]);
  });

  test("an empty search asks for a word; a search without matches says so and links to all products", async ({ page, pageErrors }) => {
    await open(page, "/");
    await page.getByRole("banner").getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(/\/search\?q=$/);
    await expect(heading(page)).toHaveText("Search");
    await expect(page.getByText("Type what you are looking for in the search box above")).toBeVisible();
    await expect(page).toHaveTitle("Search | Storefront");

    await typeInSearch(page, "zzqx");
    await searchBox(page).press("Enter");
    await expect(heading(page)).toHaveText('No results for "zzqx".');
    await expect(resultCards(page)).toHaveCount(0);
    await page.getByRole("main").getByRole("link", { name: "browse all products", exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("region", { name: "All products", exact: true }).getByRole("article")).toHaveCount(products.length);
    expect(pageErrors).toEqual([]);
  });

  test("a query of <script> shows as text", async ({ page, pageErrors }) => {
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await open(page, "/");
    await typeInSearch(page, "<script>");
    await searchBox(page).press("Enter");
    await expect(page).toHaveURL(/\/search\?q=%3Cscript%3E$/);
    await expect(heading(page)).toHaveText('No results for "<script>".');
    await expect(page).toHaveTitle('Results for "<script>" | Storefront');

    // Server-rendered too: straight from the address bar, with a script that would run if unescaped.
    await open(page, `/search?q=${encodeURIComponent('<script>alert("q")</script><img src=x onerror=alert(1)>')}`);
    await expect(heading(page)).toContainText('<script>alert("q")</script><img src=x onerror=alert(1)>');
    await expect(page.getByRole("main").locator("script, img[src=x]")).toHaveCount(0);
    expect(dialogs).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  test("a query over 200 characters is cut, and the page still answers", async ({ page, pageErrors }) => {
    const response = await open(page, `/search?q=rucksack${"x".repeat(400)}`);
    expect(response?.status()).toBe(200);
    await expect(heading(page)).toHaveText(`No results for "rucksack${"x".repeat(192)}".`);
    expect(pageErrors).toEqual([]);
  });
});

test.describe("header search without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("submitting the box gives the same server-rendered results page", async ({ page }) => {
    await page.goto("/");
    await searchBox(page).fill("rucksak");
    await searchBox(page).press("Enter");
    await expectRucksackResults(page);
    await expect(searchBox(page)).toHaveValue("rucksak");

    // The search button submits too.
    await searchBox(page).fill("hedphones");
    await page.getByRole("banner").getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(/\/search\?q=hedphones$/);
    await expect(resultCards(page).first()).toHaveAccessibleName(HEADPHONES.title);
  });
});

test.describe("search at 360 px width", () => {
  test.use({ viewport: viewports.phone });

  test("results, messages and suggestions fit the narrow screen; a tap on a suggestion opens it", async ({ page, pageErrors }) => {
    const noSideScroll = async () =>
      expect(await page.evaluate(() => document.documentElement.scrollWidth), "the page must not scroll sideways").toBeLessThanOrEqual(
        viewports.phone.width,
      );
    await open(page, "/search?q=jacket");
    await expect(resultCards(page)).toHaveCount(3);
    await noSideScroll();
    // One long word is the worst case for the heading.
    await open(page, `/search?q=${"w".repeat(200)}`);
    await expect(heading(page)).toBeVisible();
    await noSideScroll();

    await typeInSearch(page, "wireless");
    const option = suggestions(page).getByRole("option", { name: HEADPHONES.title, exact: true });
    await expect(option).toBeVisible();
    const box = await suggestions(page).boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(viewports.phone.width);
    await option.click();
    await expect(page).toHaveURL(new RegExp(`/products/${HEADPHONES.id}$`));
    expect(pageErrors).toEqual([]);
  });
});

test.describe("search accessibility", () => {
  async function expectNoViolations(page: Page) {
    await page.mouse.move(0, 0);
    const { violations } = await new AxeBuilder({ page }).include("header [role=search]").include("main").analyze();
    const report = violations
      .map((v) => `${v.impact} ${v.id}: ${v.help}\n${v.nodes.map((n) => `  ${n.target.join(" ")}: ${n.failureSummary ?? ""}`).join("\n")}`)
      .join("\n");
    expect(violations, report).toEqual([]);
  }

  test("the results page and the open suggestions list pass axe", async ({ page }) => {
    await open(page, "/search?q=jacket");
    await expect(resultCards(page)).toHaveCount(3);
    await expectNoViolations(page);
    await typeInSearch(page, "e");
    await expect(suggestions(page)).toBeVisible();
    await searchBox(page).press("ArrowDown");
    await expectNoViolations(page);
  });
});
