import { confirmEmail } from "./mail.ts";
import { ownShop } from "./own-shop.ts";
import { expect, open, registerAccount, test, viewports } from "./support.ts";

// The back office's catalogue import at phone and desktop width: a bad file lists each bad row and
// field and writes nothing; a good one says what it added and updated, and the shop shows it. It
// changes the catalogue, so it runs on a shop of its own (its own database), not the server the
// other journeys read.
const ADMINS = { desktop: "import.desktop@example.com", phone: "import.phone@example.com" } as const;
const SHOTS = "test-results/admin-import";
const BAD = "id,title,price,description,category,stock\n1,Rucksack,-3,A rucksack.,men's clothing,4\n,,12,No title.,kitchen,x\n";
// The tee's new price is an update the first time, unchanged the second (both widths share the shop).
const good = (label: string) => `id,title,price,description,category,stock\n2,Slim-Fit Crew Neck Tee,12.00,A soft tee.,men's clothing,30\n,Linen Apron (${label}),24.50,An apron.,kitchen,12\n`;

test.describe("on a shop of its own", () => {
  test.describe.configure({ mode: "default" });

  const shop = ownShop("import", { ADMIN_EMAILS: Object.values(ADMINS).join(",") });

  for (const [label, viewport] of Object.entries(viewports) as Array<[keyof typeof ADMINS, (typeof viewports)[keyof typeof viewports]]>) {
    test(`an admin imports a bad file, then a good one, at ${label} width`, async ({ browser }) => {
      test.slow();
      const context = await browser.newContext({ baseURL: shop.url(), viewport });
      const page = await context.newPage();
      await registerAccount(page, ADMINS[label]);
      await confirmEmail(page.request, ADMINS[label], shop.dataDir());
      await open(page, "/admin/products");
      await page.getByRole("link", { name: "Import products", exact: true }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Import products");
      const file = page.getByLabel("Catalogue file (.csv or .json)");

      await file.setInputFiles({ name: "catalogue.csv", mimeType: "text/csv", buffer: Buffer.from(BAD) });
      await page.getByRole("button", { name: "Import", exact: true }).click();
      const problems = page.getByRole("alert");
      await expect(problems).toContainText("Nothing was imported: these rows are not right.");
      await expect(problems.getByRole("listitem")).toHaveText(["row 1: price: The price cannot be negative.", "row 2: title: Enter a title.", "row 2: stock: Enter the stock as a whole number."]);
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth - innerWidth)).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `${SHOTS}/bad-${viewport.width}.png`, fullPage: true });

      await file.setInputFiles({ name: "catalogue.csv", mimeType: "text/csv", buffer: Buffer.from(good(label)) });
      await page.getByRole("button", { name: "Import", exact: true }).click();
      await expect(page.getByRole("status").filter({ hasText: /^Imported/ })).toHaveText(/^Imported: added 1, (updated 1, unchanged 0|updated 0, unchanged 1)\.$/);
      await expect(page.getByRole("alert")).toHaveCount(0);
      // The form starts again: a second click cannot load the same file twice.
      await expect(file).toHaveValue("");
      await page.screenshot({ path: `${SHOTS}/good-${viewport.width}.png`, fullPage: true });

      // The shop shows what was imported.
      await open(page, "/products/2");
      await expect(page.getByRole("main")).toContainText("$12.00");
      await open(page, "/results/kitchen");
      await expect(page.getByRole("heading", { name: `Linen Apron (${label})` })).toBeVisible();
      await open(page, "/admin/products");
      await expect(page.getByRole("link", { name: "CSV", exact: true })).toHaveAttribute("href", "/api/admin/products/export?format=csv");
      await context.close();
    });
  }
});
