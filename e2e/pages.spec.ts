import { card, cartLink, expect, expectCartCount, expectNoSeriousViolations, expectSignInFor, open, products, test, viewports } from "./support.ts";

const SIGN_IN = [
  { path: "/payment", message: "You must log in to pay" },
  { path: "/orders", message: "You must log in to access your orders" },
];


test.describe("routes", () => {
  for (const path of ["/no-such-page", "/results/electronics/extra/levels"]) {
    test(`${path} is a 404 page with the header`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
      await expect(page).toHaveTitle("Page not found | Storefront");
      await expect(page.getByRole("banner").getByRole("link", { name: "Storefront home", exact: true })).toBeVisible();
      await expect(cartLink(page)).toBeVisible();
      await expect(page.getByRole("banner").getByRole("search")).toBeVisible();
    });
  }

  test("the 404 page leads back home", async ({ page }) => {
    await page.goto("/no-such-page");
    await page.getByRole("link", { name: "Go to the Storefront home page" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("region", { name: "All products" })).toBeVisible();
  });

  for (const { path, message } of SIGN_IN) {
    test(`${path} sends an anonymous visitor to sign in with "${message}"`, async ({ page, request }) => {
      const direct = await request.get(path, { maxRedirects: 0 });
      expect(direct.status()).toBeGreaterThanOrEqual(300);
      expect(direct.status()).toBeLessThan(400);
      expect(new URL(direct.headers()["location"] ?? "", "http://x").searchParams.get("redirectTo")).toBe(path);

      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expectSignInFor(page, path, message);
    });
  }

  test("Returns & Orders in the header leads to sign in, in the app", async ({ page, pageErrors }) => {
    await open(page, "/");
    await page.getByRole("link", { name: "Returns & Orders", exact: true }).click();
    await expectSignInFor(page, "/orders", "You must log in to access your orders");
    expect(pageErrors).toEqual([]);
  });

  test("Continue to checkout leads to sign in, and the basket is kept", async ({ page, pageErrors }) => {
    const product = products[0]!;
    await open(page, "/");
    await card(page, product).getByRole("button", { name: "Add to cart", exact: true }).click();
    await expectCartCount(page, 1);
    await cartLink(page).click();
    await page.getByRole("link", { name: "Continue to checkout", exact: true }).click();
    await expectSignInFor(page, "/payment", "You must log in to pay");
    await expectCartCount(page, 1);
    expect(pageErrors).toEqual([]);
  });

  test("sign in shows no message of its own for other redirect targets", async ({ page }) => {
    for (const url of ["/auth", "/auth?redirectTo=https%3A%2F%2Fevil.example%2F", "/auth?redirectTo=%2Fcart"]) {
      await page.goto(url);
      await expect(page.getByRole("heading", { level: 1, name: "Sign In" })).toBeVisible();
      await expect(page.getByText(/You must log in/)).toHaveCount(0);
    }
  });

  test("the language screen offers English, reached from the header", async ({ page, pageErrors }) => {
    await open(page, "/");
    await page.getByRole("link", { name: "EN, language: English", exact: true }).click();
    await expect(page).toHaveURL(/\/language$/);
    await expect(page.getByRole("heading", { level: 1, name: "Language settings" })).toBeVisible();
    const english = page.getByRole("radio", { name: "English - EN", exact: true });
    await expect(english).toBeChecked();
    await expect(page.getByRole("radio")).toHaveCount(1);
    expect(pageErrors).toEqual([]);
  });
});

test.describe("documents", () => {
  const urls = [
    "/",
    `/products/${products[0]!.id}`,
    "/results/electronics",
    "/results/toys",
    "/cart",
    "/language",
    "/auth",
    "/auth?redirectTo=%2Fpayment",
    "/no-such-page",
    "/products/9999",
  ];

  test("every page is English and has a title and a meta description", async ({ page }) => {
    const problems: string[] = [];
    for (const url of urls) {
      await page.goto(url);
      const lang = await page.locator("html").getAttribute("lang");
      const title = (await page.title()).trim();
      const descriptions = await page.locator('meta[name="description"]').evaluateAll((metas) =>
        metas.map((meta) => (meta.getAttribute("content") ?? "").trim()),
      );
      if (lang !== "en") problems.push(`${url}: <html lang="${lang}">`);
      if (!title) problems.push(`${url}: empty <title>`);
      if (descriptions.length !== 1 || !descriptions[0]) problems.push(`${url}: meta descriptions ${JSON.stringify(descriptions)}`);
    }
    expect(problems, problems.join("\n")).toEqual([]);
  });

  test("security headers on the home page, with a fresh script nonce on every script", async ({ page }) => {
    const response = await page.goto("/");
    expect(response).not.toBeNull();
    const headers = response!.headers();
    const csp = headers["content-security-policy"] ?? "";
    expect(csp).toContain("nonce-");
    const scriptSrc = csp.split(";").map((d) => d.trim()).find((d) => d.startsWith("script-src")) ?? "";
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    const nonce = /'nonce-([^']+)'/.exec(scriptSrc)?.[1];
    expect(nonce, "script-src carries the nonce").toBeTruthy();
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toMatch(/\S/);
    expect(headers["x-frame-options"]).toBe("DENY");

    // Every script of the page carries this response's nonce...
    const scriptNonces = await page.locator("script").evaluateAll((scripts) => scripts.map((s) => (s as HTMLScriptElement).nonce));
    expect(scriptNonces.length).toBeGreaterThan(0);
    expect(scriptNonces.every((n) => n === nonce)).toBe(true);
    // ...and the next response gets another one.
    const again = await page.request.get("/");
    expect(again.headers()["content-security-policy"]).not.toContain(`'nonce-${nonce}'`);
  });

  test("product images are served with an immutable cache policy", async ({ page }) => {
    await page.goto("/");
    const src = await card(page, products[0]!).getByRole("img", { name: products[0]!.title, exact: true }).getAttribute("src");
    expect(src).toBeTruthy();
    const image = await page.request.get(src!);
    expect(image.status()).toBe(200);
    expect(image.headers()["content-type"]).toContain("image/");
    expect(image.headers()["cache-control"]).toContain("immutable");
  });
});

for (const [label, viewport] of Object.entries(viewports)) {
  test.describe(`accessibility at ${label} width (${viewport.width} px)`, () => {
    test.use({ viewport });

    test("home", async ({ page }) => {
      await open(page, "/");
      await expectNoSeriousViolations(page);
    });

    test("product page", async ({ page }) => {
      await open(page, `/products/${products[0]!.id}`);
      await expectNoSeriousViolations(page);
    });

    test("cart with an item", async ({ page }) => {
      await open(page, "/");
      await card(page, products[0]!).getByRole("button", { name: "Add to cart", exact: true }).click();
      await expectCartCount(page, 1);
      await cartLink(page).click();
      await expect(page.getByRole("heading", { level: 1, name: "Hello, Your shopping basket" })).toBeVisible();
      await expect(page.getByRole("main").getByRole("article")).toHaveCount(1);
      await expectNoSeriousViolations(page);
    });

    test("electronics results", async ({ page }) => {
      await open(page, "/results/electronics");
      await expectNoSeriousViolations(page);
    });
  });
}
