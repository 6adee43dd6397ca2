import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startImageHost } from "../../test/support/fakestore-host.ts";
import { memoryLogger } from "../../test/support/logger.ts";
import { isPublicAddress } from "./address.ts";
import { type ImageAnswer, ImageProxy, type ImageProxyOptions } from "./proxy.ts";

let host: Awaited<ReturnType<typeof startImageHost>>;
let cacheDir: string;
beforeAll(async () => {
  host = await startImageHost();
});
afterAll(() => host.close());
beforeEach(() => {
  host.requests.length = 0;
  host.state.failing = false;
  cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-images-"));
});
afterEach(() => fs.rmSync(cacheDir, { recursive: true, force: true }));

function proxy(options: Partial<ImageProxyOptions> = {}) {
  const { log, records } = memoryLogger();
  const images = new ImageProxy({
    allowedOrigins: [host.url],
    cacheDir,
    maxCacheBytes: 50 * 1024 * 1024,
    timeoutMs: 2_000,
    log,
    allowPrivateAddresses: true,
    ...options,
  });
  return { images, records };
}

/** The key and width of the path link() made for `url` at `width`. */
function parts(images: ImageProxy, url: string, width = "480"): [string, string] {
  const linked = images.link(url);
  if (!linked) throw new Error(`${url} was not linked`);
  return [linked.image.split("/")[3]!, width];
}

function body(answer: ImageAnswer): Buffer {
  if (!answer.ok) throw new Error(`expected an image, got ${JSON.stringify(answer)}`);
  return answer.body;
}

describe("ImageProxy", () => {
  it("links an allowed image to our paths at each width, and nothing else", () => {
    const { images } = proxy({ allowedOrigins: ["https://fakestoreapi.com"] });
    const key = Buffer.from("https://fakestoreapi.com/img/81fPKd-2AYL._AC_SL1500_t.png").toString("base64url");
    expect(images.link("https://fakestoreapi.com/img/81fPKd-2AYL._AC_SL1500_t.png")).toEqual({
      image: `/images/remote/${key}/480`,
      imageSrcSet: `/images/remote/${key}/240 240w, /images/remote/${key}/480 480w, /images/remote/${key}/960 960w`,
    });
    expect(images.link("https://evil.example/img/x.png")).toBeNull();
    expect(images.link("http://fakestoreapi.com/img/x.png")).toBeNull(); // another origin: another scheme
    expect(images.link("file:///etc/passwd")).toBeNull();
    expect(images.link("not a url")).toBeNull();
  });

  it("fetches a source once, and makes each width and format from it, resized and re-encoded", async () => {
    const { images } = proxy();
    const [key] = parts(images, `${host.url}/img/a.png`);
    const card = body(await images.image(key, "240", "webp"));
    const meta = await sharp(card).metadata();
    expect(meta.format).toBe("webp");
    expect(Math.max(meta.width, meta.height)).toBe(240);
    const fallback = await sharp(body(await images.image(key, "480", "jpeg"))).metadata();
    expect([fallback.format, Math.max(fallback.width, fallback.height)]).toEqual(["jpeg", 480]);
    // The source is about 900×1100: the largest width is not blown up beyond it.
    const large = await sharp(body(await images.image(key, "960", "webp"))).metadata();
    expect(large.height).toBe(960);
    expect(host.requests).toEqual(["/img/a.png"]);
    // Asked again: from the cache, the host is not asked.
    expect(body(await images.image(key, "240", "webp")).equals(card)).toBe(true);
    expect(host.requests).toEqual(["/img/a.png"]);
  });

  it("shares one fetch among requests for the same image at the same time", async () => {
    const { images } = proxy();
    const [key] = parts(images, `${host.url}/img/b.jpg`);
    const answers = await Promise.all(["240", "480", "240", "960", "480"].map((width) => images.image(key, width, "webp")));
    expect(answers.every((a) => a.ok)).toBe(true);
    expect(host.requests).toEqual(["/img/b.jpg"]);
  });

  it("keeps its cache on disk across restarts", async () => {
    const [key] = parts(proxy().images, `${host.url}/img/c.png`);
    body(await proxy().images.image(key, "240", "webp"));
    body(await proxy().images.image(key, "240", "webp"));
    body(await proxy().images.image(key, "480", "webp"));
    expect(host.requests).toEqual(["/img/c.png"]);
  });

  it("keeps the cache within its size, dropping the least recently used first", async () => {
    const { images } = proxy({ maxCacheBytes: 400_000 });
    for (const name of ["d1", "d2", "d3", "d4"]) body(await images.image(parts(images, `${host.url}/img/${name}.png`)[0], "240", "webp"));
    const files = fs.readdirSync(cacheDir);
    const total = files.reduce((sum, file) => sum + fs.statSync(path.join(cacheDir, file)).size, 0);
    expect(total).toBeLessThanOrEqual(400_000);
    // The newest image is still there: asking for it again does not touch the host.
    host.requests.length = 0;
    body(await images.image(parts(images, `${host.url}/img/d4.png`)[0], "240", "webp"));
    expect(host.requests).toEqual([]);
  });

  it.each([
    ["an origin that is not allowed", () => Buffer.from("http://169.254.169.254/latest/meta-data/").toString("base64url"), "480", 403],
    ["another spelling of an allowed URL", () => Buffer.from(`${host.url}/img/../img/a.png`).toString("base64url"), "480", 404],
    ["a key that is not base64url of a URL", () => "not*a*key", "480", 404],
    ["a URL of another scheme", () => Buffer.from("file:///etc/passwd").toString("base64url"), "480", 404],
    ["a width we do not make", () => Buffer.from(`${host.url}/img/a.png`).toString("base64url"), "1000", 404],
  ])("refuses %s with a 4xx, asking nobody", async (_name, key, width, status) => {
    const { images } = proxy();
    const answer = await images.image(key(), width, "webp");
    expect(answer).toMatchObject({ ok: false, refused: true, status });
    expect(host.requests).toEqual([]);
  });

  it("never connects to a private address in production, whatever the allow-list says", async () => {
    const port = new URL(host.url).port;
    const { images, records } = proxy({ allowedOrigins: [host.url, `http://localhost:${port}`], allowPrivateAddresses: false });
    const literal = await images.image(parts(images, `${host.url}/img/e.png`)[0], "240", "webp");
    expect(literal).toEqual({ ok: false, refused: false, reason: "127.0.0.1 is not a public address" });
    const named = await images.image(parts(images, `http://localhost:${port}/img/e.png`)[0], "240", "webp");
    expect(named).toMatchObject({ ok: false, refused: false, reason: expect.stringMatching(/^localhost resolves to (127\.0\.0\.1|::1), not a public address$/) });
    expect(host.requests).toEqual([]);
    expect(records.filter((r) => r.msg === "product image unavailable; showing a placeholder")).toHaveLength(2);
  });

  it("answers a failed fetch with the placeholder, and does not ask again for a while", async () => {
    let time = 0;
    const { images } = proxy({ now: () => time, retryAfterMs: 60_000 });
    const [key] = parts(images, `${host.url}/img/f.png`);
    host.state.failing = true;
    expect(await images.image(key, "240", "webp")).toEqual({ ok: false, refused: false, reason: "HTTP 500" });
    expect(await images.image(key, "480", "webp")).toMatchObject({ ok: false, refused: false });
    expect(host.requests).toEqual(["/img/f.png"]);
    host.state.failing = false;
    time += 60_000;
    expect((await images.image(key, "240", "webp")).ok).toBe(true);
    expect(host.requests).toEqual(["/img/f.png", "/img/f.png"]);
  });

  it("refuses what is not an image", async () => {
    const { images } = proxy();
    const answer = await images.image(parts(images, `${host.url}/not-an-image`)[0], "240", "webp");
    expect(answer).toEqual({ ok: false, refused: false, reason: "HTTP 404" });
  });
});

describe("isPublicAddress", () => {
  it.each([
    ["93.184.215.14", true],
    ["2606:2800:21f:cb07:6820:80da:af6b:8b2c", true],
    ["127.0.0.1", false],
    ["10.1.2.3", false],
    ["172.16.0.1", false],
    ["192.168.1.1", false],
    ["169.254.169.254", false],
    ["100.64.0.1", false],
    ["0.0.0.0", false],
    ["::1", false],
    ["::", false],
    ["fd12:3456::1", false],
    ["fe80::1", false],
    ["::ffff:127.0.0.1", false],
    ["::ffff:10.0.0.1", false],
    ["not an address", false],
  ])("%s: %s", (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});
