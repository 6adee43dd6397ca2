// The product photos of a remote catalogue (/images/remote/<key>/<width>) are public and
// immutable, so they never carry a renewed session cookie.
import { afterAll, beforeAll, expect, it } from "vitest";
import { startFakeStoreHost, startImageHost } from "../../test/support/fakestore-host.ts";
import { jsonPost } from "../../test/support/app.ts";
import { remoteShop, SHOP_URL } from "../../test/support/remote-shop.ts";

let images: Awaited<ReturnType<typeof startImageHost>>;
let host: Awaited<ReturnType<typeof startFakeStoreHost>>;
let shop: Awaited<ReturnType<typeof remoteShop>>;

beforeAll(async () => {
  images = await startImageHost();
  host = await startFakeStoreHost(images.url);
  shop = await remoteShop({ catalogueUrl: host.url, imageOrigins: [images.url] });
});
afterAll(async () => {
  await shop.close();
  await host.close();
  await images.close();
});

it("answers a product photo public and without a cookie to a session that needs renewing; the next private answer renews it", async () => {
  const signedUp = await shop.app.request("/api/auth/sign-up/email", jsonPost({ email: "ada@example.com", password: "correct horse", name: "ada" }, { origin: SHOP_URL }));
  expect(signedUp.status).toBe(200);
  // The session token alone, as a browser sends it once the minute-long session cache has expired.
  const token = signedUp.headers.getSetCookie().find((c) => c.startsWith("storefront.session_token="))!.split(";")[0]!;
  const product = await shop.catalogue.byId(1);
  expect(product?.image).toMatch(/^\/images\/remote\/[\w-]+\/\d+$/);
  const photo = await shop.app.request(product!.image, { headers: { cookie: token, accept: "image/webp" } });
  expect(photo.status).toBe(200);
  expect(photo.headers.get("cache-control")).toMatch(/public/);
  expect(photo.headers.getSetCookie()).toEqual([]);
  const orders = await shop.app.request("/api/orders", { headers: { cookie: token } });
  expect(orders.headers.getSetCookie().length).toBe(1);
  expect(orders.headers.get("cache-control")).toBe("private, no-store");
});
