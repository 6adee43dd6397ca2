import { describe, expect, it } from "vitest";
import { TEST_ORIGIN, signUp, testApp } from "../test/support/app.ts";
import { builtPages } from "../test/support/pages.ts";

/** Timers keeping the process alive: a finished render must not leave one holding its page. */
const liveTimers = () => process.getActiveResourcesInfo().filter((type) => type === "Timeout").length;

describe("server rendering", () => {
  it("leaves nothing of a finished page behind: its cut-off timer goes when the render is done", async () => {
    const { app } = await testApp({ ssr: await builtPages(), env: { PAGE_CACHE_ENTRIES: "0" } });
    const cookie = await signUp(app, "renders@example.com");
    const paths = ["/", "/products/1", "/results/electronics", "/cart", "/auth", "/orders"];
    const before = liveTimers();
    for (let round = 0; round < 5; round++) {
      for (const path of paths) {
        const response = await app.request(`${TEST_ORIGIN}${path}`, { headers: { cookie } });
        expect(response.status).toBe(200);
        expect(await response.text()).toContain("</html>");
      }
    }
    // 30 pages rendered: each used to keep a six-second timer (and with it its whole render) alive.
    expect(liveTimers() - before).toBeLessThan(3);
  });
});
