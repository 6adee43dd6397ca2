import { describe, expect, it } from "vitest";
import { cleanupAfterEach, testEngines } from "../../test/support/database.ts";
import { TEST_ORIGIN } from "../../test/support/app.ts";
import { OFF_SITE_TARGETS } from "../../test/support/open-redirects.ts";
import { pagesAppWithAda } from "../../test/support/pages-app.ts";

// Every sign-in target that is not a path on this site lands on "/", on the form post, on React
// Router's `.data` request and in the hidden field of GET /auth.

/** Where React Router's single-fetch answer to a `.data` action sends the browser. */
function dataRedirect(body: string): string | undefined {
  const values = JSON.parse(body) as unknown[];
  const at = values.indexOf("redirect");
  return at >= 0 ? String(values[at + 1]) : undefined;
}

describe.each(testEngines())("sign-in redirects on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  const setup = () => pagesAppWithAda(engine, cleanup);

  const signIn = (redirectTo: string) => ({
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: TEST_ORIGIN },
    body: new URLSearchParams({ intent: "signin", email: "ada@example.com", password: "correct horse", redirectTo }).toString(),
  });

  it("lands on / for every off-site target, on the form post and on the .data request", async () => {
    const app = await setup();
    for (const target of OFF_SITE_TARGETS) {
      const form = await app.request(`${TEST_ORIGIN}/auth`, signIn(target));
      expect([target, form.status, form.headers.get("location")]).toEqual([target, 302, "/"]);
      const data = await app.request(`${TEST_ORIGIN}/auth.data`, signIn(target));
      expect([target, data.status, dataRedirect(await data.text())]).toEqual([target, 202, "/"]);
    }
  });

  it("puts / in the page's hidden field for every off-site target in the query", async () => {
    const app = await setup();
    for (const target of OFF_SITE_TARGETS) {
      for (const query of [encodeURIComponent(target), target.replaceAll("?", "%3F").replaceAll("#", "%23")]) {
        const page = await app.request(`${TEST_ORIGIN}/auth?redirectTo=${query}`);
        const field = /<input type="hidden" name="redirectTo" value="([^"]*)"/.exec(await page.text())?.[1];
        expect([target, query, field]).toEqual([target, query, "/"]);
      }
    }
  });

  it("still returns to a path on this site", async () => {
    const app = await setup();
    const form = await app.request(`${TEST_ORIGIN}/auth`, signIn("/orders?page=2"));
    expect(form.headers.get("location")).toBe("/orders?page=2");
    const page = await app.request(`${TEST_ORIGIN}/auth?redirectTo=%2Fpayment`);
    expect(await page.text()).toContain('name="redirectTo" value="/payment"');
  });
});
