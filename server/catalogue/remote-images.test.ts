import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImageProxy, PLACEHOLDER_PATH } from "../images/proxy.ts";
import { startFakeCatalogue } from "../../test/support/fake-catalogue.ts";
import { memoryLogger } from "../../test/support/logger.ts";
import { RemoteCatalogue } from "./remote.ts";

let fake: Awaited<ReturnType<typeof startFakeCatalogue>>;
beforeAll(async () => {
  fake = await startFakeCatalogue();
});
afterAll(() => fake.close());

describe("RemoteCatalogue's product images", () => {
  it("points product images at our image proxy, and at the placeholder for an origin that is not allowed", async () => {
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-remote-"));
    const { log, records } = memoryLogger();
    const imageProxy = new ImageProxy({ allowedOrigins: [fake.url], cacheDir, maxCacheBytes: 1e6, timeoutMs: 300, log });
    const catalogue = new RemoteCatalogue({ baseUrl: fake.url, timeoutMs: 300, cacheSeconds: 60, log, imageProxy });
    // FAKE_PRODUCTS' images live on https://img.example, which is not allowed.
    for (const product of await catalogue.list()) {
      expect(product.image).toBe(PLACEHOLDER_PATH);
      expect(product.imageSrcSet).toBeUndefined();
    }
    expect(records.filter((r) => String(r.msg).startsWith("catalogue images on an origin that is not allowed"))).toEqual([
      expect.objectContaining({ origin: "https://img.example" }),
    ]);

    const allowing = new RemoteCatalogue({
      baseUrl: fake.url,
      timeoutMs: 300,
      cacheSeconds: 60,
      log,
      imageProxy: new ImageProxy({ allowedOrigins: ["https://img.example"], cacheDir, maxCacheBytes: 1e6, timeoutMs: 300, log }),
    });
    const ring = (await allowing.byId(2))!;
    const key = Buffer.from("https://img.example/2.png").toString("base64url");
    expect(ring.image).toBe(`/images/remote/${key}/480`);
    expect(ring.imageSrcSet).toBe(`/images/remote/${key}/240 240w, /images/remote/${key}/480 480w, /images/remote/${key}/960 960w`);
    fs.rmSync(cacheDir, { recursive: true });
  });
});
