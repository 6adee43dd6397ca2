import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { signUpAdmin } from "../../test/support/admin.ts";
import { jsonPost, signUp, TEST_ORIGIN, testAppOnFreshDatabase } from "../../test/support/app.ts";
import { cleanupAfterEach, testEngines } from "../../test/support/database.ts";
import { memoryLogger } from "../../test/support/logger.ts";

// better-auth's writes take JSON only, as every other write; its update-user gets its body checked
// here; a broken multipart body and a picture cut short are 4xx with a message, logged as warnings.

const NOT_JSON = { error: "The request body must be JSON (Content-Type: application/json)." };
const ADA = { email: "ada@example.com", password: "correct horse" };

describe.each(testEngines())("request bodies better-auth and the picture upload get on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  async function setup() {
    const { log, records } = memoryLogger();
    const shop = await testAppOnFreshDatabase(engine, cleanup, { log, catalogue: "database" });
    cleanup(() => shop.services.catalogueEvents.close());
    /** The statuses of the warnings about malformed bodies, and every error logged. */
    const malformed = () => records.filter((r) => r.level === 40 && r.msg === "malformed request body").map((r) => r.status);
    return { ...shop, malformed, errors: () => records.filter((r) => (r.level as number) >= 50) };
  }

  it("answers 415 to a write to /api/auth in anything but JSON, and does nothing", async () => {
    const { app, malformed, errors } = await setup();
    const form = new FormData();
    for (const [name, value] of Object.entries({ ...ADA, name: "ada" })) form.set(name, value);
    const bodies: Array<[string | null, BodyInit]> = [
      ["application/x-www-form-urlencoded", new URLSearchParams({ ...ADA, name: "ada" }).toString()],
      [null, form],
      ["multipart/form-data; boundary=x", "--y"],
      ["text/plain", JSON.stringify({ ...ADA, name: "ada" })],
      ["application/json-patch+json", JSON.stringify({ ...ADA, name: "ada" })],
    ];
    for (const [type, body] of bodies) {
      const response = await app.request("/api/auth/sign-up/email", { method: "POST", headers: { origin: TEST_ORIGIN, ...(type && { "content-type": type }) }, body });
      expect([type, response.status, await response.json()]).toEqual([type, 415, NOT_JSON]);
    }
    // No account was made: signing in is refused as for anyone unknown.
    expect((await app.request("/api/auth/sign-in/email", jsonPost(ADA))).status).toBe(401);
    expect(malformed()).toEqual(bodies.map(() => 415));
    expect(errors()).toEqual([]);
  });

  it("still takes JSON, its reads and a sign-out with no body", async () => {
    const { app } = await setup();
    const cookie = await signUp(app, ADA.email);
    expect((await app.request("/api/auth/sign-in/email", jsonPost(ADA, { "content-type": "application/json; charset=utf-8" }))).status).toBe(200);
    expect((await (await app.request("/api/auth/get-session", { headers: { cookie } })).json()) as { user: { email: string } }).toMatchObject({ user: { email: ADA.email } });
    expect((await app.request("/api/auth/sign-out", { method: "POST", headers: { origin: TEST_ORIGIN, cookie } })).status).toBe(200);
  });

  it("answers 400 with a message to an update-user of the wrong shape, and changes nothing", async () => {
    const { app, errors } = await setup();
    const cookie = await signUp(app, ADA.email);
    const name = async () => ((await (await app.request("/api/auth/get-session", { headers: { cookie } })).json()) as { user: { name: string } }).user.name;
    const refused: Array<[unknown, string]> = [
      [{ name: null }, "name: name must be a string"],
      [{ name: 7 }, "name: name must be a string"],
      [{ image: {} }, "image: image must be a string or null"],
      [null, "Invalid input: expected object, received null"],
      [["name"], "Invalid input: expected object, received array"],
    ];
    for (const [body, error] of refused) {
      const response = await app.request("/api/auth/update-user", jsonPost(JSON.stringify(body), { cookie }));
      expect([body, response.status, await response.json()]).toEqual([body, 400, { error }]);
    }
    expect(await name()).toBe(ADA.email);
    // better-auth's own refusals pass as they are; a good update is made.
    const email = await app.request("/api/auth/update-user", jsonPost({ email: "eve@example.com" }, { cookie }));
    expect([email.status, ((await email.json()) as { code: string }).code]).toEqual([400, "EMAIL_CAN_NOT_BE_UPDATED"]);
    expect((await app.request("/api/auth/update-user", jsonPost({ name: "Ada Lovelace", image: null }, { cookie }))).status).toBe(200);
    expect(await name()).toBe("Ada Lovelace");
    expect(errors()).toEqual([]);
  });

  it("answers a broken multipart upload 400 and a picture cut short 422, each with a message", async () => {
    const { app, services, malformed, errors } = await setup();
    const admin = await signUpAdmin(app, services);
    const upload = (type: string, body: BodyInit) =>
      app.request(`${TEST_ORIGIN}/api/admin/products/1/image`, { method: "POST", headers: { cookie: admin, origin: TEST_ORIGIN, "content-type": type }, body });
    const broken = await upload("multipart/form-data; boundary=abc", '--abc\r\nContent-Disposition: form-data; name="image"\r\n\r\nx\r\n--zzz');
    expect([broken.status, await broken.json()]).toEqual([400, { error: "The request body is not a readable multipart form." }]);
    const png = await sharp({ create: { width: 600, height: 400, channels: 3, background: "#c0392b" } }).png().toBuffer();
    const cut = await upload("image/png", new Uint8Array(png.subarray(0, Math.floor(png.length / 2))));
    expect([cut.status, await cut.json()]).toEqual([422, { error: "The image could not be read: the file is damaged or incomplete." }]);
    expect(malformed()).toEqual([400]);
    expect(errors()).toEqual([]);
  });
});
