import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { TEST_ORIGIN, testApp } from "../../test/support/app.ts";
import { builtPages } from "../../test/support/pages.ts";

// The production build's client files, served through the whole app (security headers and the
// global compression middleware included), as `npm start` serves them.
const clientDir = path.resolve("build/client");
const CHROME = "gzip, deflate, br, zstd";

let app: Awaited<ReturnType<typeof testApp>>["app"];
/** The build's largest script: the one every page loads first. */
let script: string;

beforeAll(async () => {
  await builtPages(); // fails with a clear message when there is no build
  ({ app } = await testApp({ clientDir }));
  const scripts = fs.readdirSync(path.join(clientDir, "assets")).filter((file) => file.endsWith(".js"));
  script = `assets/${scripts.sort((a, b) => fs.statSync(path.join(clientDir, "assets", b)).size - fs.statSync(path.join(clientDir, "assets", a)).size)[0]}`;
});

function request(file: string, acceptEncoding?: string, method = "GET") {
  return app.request(`${TEST_ORIGIN}/${file}`, { method, headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {} });
}

const onDisk = (file: string) => fs.readFileSync(path.join(clientDir, file));
const body = async (response: Response) => Buffer.from(await response.arrayBuffer());

describe("built client files", () => {
  it("go to a browser as the brotli copy written at build time, byte for byte", async () => {
    const response = await request(script, CHROME);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBe("br");
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(response.headers.get("vary")).toBe("Accept-Encoding");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const sent = await body(response);
    // Exactly the file on disk: compression did not encode it a second time.
    expect(sent.equals(onDisk(`${script}.br`))).toBe(true);
    expect(response.headers.get("content-length")).toBe(String(sent.length));
    expect(zlib.brotliDecompressSync(sent).equals(onDisk(script))).toBe(true);
    expect(sent.length).toBeLessThan(onDisk(script).length / 3);
  });

  it("go as the gzip copy to a client without brotli", async () => {
    const response = await request(script, "gzip, deflate");
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(response.headers.get("vary")).toBe("Accept-Encoding");
    const sent = await body(response);
    expect(sent.equals(onDisk(`${script}.gz`))).toBe(true);
    expect(response.headers.get("content-length")).toBe(String(sent.length));
    expect(zlib.gunzipSync(sent).equals(onDisk(script))).toBe(true);
  });

  it("go as they are to a client that accepts no encoding, still marked as varying by it", async () => {
    const response = await request(script);
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(response.headers.get("vary")).toBe("Accept-Encoding");
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const sent = await body(response);
    expect(sent.equals(onDisk(script))).toBe(true);
    expect(response.headers.get("content-length")).toBe(String(sent.length));
  });

  it("answer HEAD with the chosen copy's headers and no body", async () => {
    const response = await request(script, CHROME, "HEAD");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBe("br");
    expect(response.headers.get("content-length")).toBe(String(onDisk(`${script}.br`).length));
    expect((await body(response)).length).toBe(0);
  });

  it("outside assets/ (no hash in the name) are cached for an hour, precompressed too", async () => {
    const response = await request("favicon.svg", CHROME);
    expect(response.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(response.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(response.headers.get("content-encoding")).toBe("br");
    expect(zlib.brotliDecompressSync(await body(response)).equals(onDisk("favicon.svg"))).toBe(true);
  });

  it("each have a smaller brotli and gzip copy beside them when compressible", () => {
    const files = fs.readdirSync(clientDir, { recursive: true, encoding: "utf8" }).filter((file) => /\.(js|svg)$/.test(file));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const size = onDisk(file).length;
      // Tiny files may not shrink; a copy that would not be smaller is not written.
      if (size < 1024) continue;
      for (const suffix of [".br", ".gz"]) expect(onDisk(file + suffix).length, file + suffix).toBeLessThan(size);
    }
  });

  it("are found only inside the client folder", async () => {
    expect((await request("assets/nope.js", CHROME)).status).toBe(404);
    for (const escape of ["..%2fpackage.json", "%2e%2e/package.json", "assets/..%2f..%2fpackage.json"]) {
      expect((await request(escape, CHROME)).status, escape).toBe(404);
    }
  });
});
