import { describe, expect, it } from "vitest";
import { cleanupAfterEach, testEngines } from "../../test/support/database.ts";
import { TEST_ORIGIN } from "../../test/support/app.ts";
import { MAX_BODY_BYTES } from "./body-limit.ts";
import { pagesAppWithAda } from "../../test/support/pages-app.ts";

// Page form posts have the /api body limit too: 64 KiB, then 413.

const formPost = (path: string, bytes: number, streamed = false): [string, RequestInit] => {
  const prefix = "intent=signin&email=ada%40example.com&password=";
  const body = prefix + "x".repeat(bytes - prefix.length);
  const init: RequestInit & { duplex?: "half" } = {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: TEST_ORIGIN },
    body: streamed ? new Blob([body]).stream() : body,
  };
  if (streamed) init.duplex = "half";
  return [`${TEST_ORIGIN}${path}`, init];
};

describe.each(testEngines())("page form posts on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  const setup = () => pagesAppWithAda(engine, cleanup);

  it.each(["/auth", "/sign-out", "/cart"])("answers 413 to a body over 64 KiB posted to %s, stated or streamed", async (path) => {
    const app = await setup();
    for (const streamed of [false, true]) {
      const response = await app.request(...formPost(path, MAX_BODY_BYTES + 1, streamed));
      expect([streamed, response.status]).toEqual([streamed, 413]);
      expect(await response.json()).toEqual({ error: "The request body is too large." });
    }
    // 5 MiB, as the review sent to /auth.
    expect((await app.request(...formPost(path, 5 * 1024 * 1024))).status).toBe(413);
  });

  it("still takes a form of exactly 64 KiB", async () => {
    const app = await setup();
    const response = await app.request(...formPost("/auth", MAX_BODY_BYTES));
    // Read, and answered by the page itself (the password is far too long for the provider).
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/role="alert">[^<]+</);
  });
});
