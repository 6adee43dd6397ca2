import http from "node:http";
import https from "node:https";
import net from "node:net";
import { isPublicAddress, publicOnlyLookup } from "./address.ts";

export interface SourceFetchOptions {
  timeoutMs: number;
  maxBytes: number;
  /** Tests only: their image hosts listen on 127.0.0.1. */
  allowPrivateAddresses: boolean;
}

export type SourceFetchResult = { ok: true; body: Buffer } | { ok: false; reason: string };

/**
 * Fetches one remote image's bytes. Through node:http rather than fetch() because only node:http
 * takes our own DNS lookup (the check of the address actually connected to). Redirects are not
 * followed: a redirect could lead anywhere, and image hosts that matter answer directly.
 */
export function fetchImageSource(url: URL, options: SourceFetchOptions): Promise<SourceFetchResult> {
  return new Promise((resolve) => {
    const fail = (reason: string) => resolve({ ok: false, reason });
    const host = url.hostname.replace(/^\[|\]$/g, "");
    // An address written as an IP literal is connected to without any lookup: check it here.
    if (!options.allowPrivateAddresses && net.isIP(host) !== 0 && !isPublicAddress(host)) {
      return fail(`${host} is not a public address`);
    }
    const client = url.protocol === "https:" ? https : http;
    const request = client.get(
      url,
      {
        headers: { accept: "image/avif,image/webp,image/png,image/jpeg,image/*;q=0.8", "user-agent": "Storefront image proxy" },
        lookup: options.allowPrivateAddresses ? undefined : publicOnlyLookup,
        signal: AbortSignal.timeout(options.timeoutMs),
      },
      (response) => {
        const type = response.headers["content-type"] ?? "";
        if (response.statusCode !== 200) {
          response.resume();
          return fail(`HTTP ${response.statusCode}`);
        }
        if (!type.startsWith("image/")) {
          response.resume();
          return fail(`not an image (${type || "no content type"})`);
        }
        if (Number(response.headers["content-length"] ?? 0) > options.maxBytes) {
          request.destroy();
          return fail(`larger than ${options.maxBytes} bytes`);
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            request.destroy();
            fail(`larger than ${options.maxBytes} bytes`);
          } else chunks.push(chunk);
        });
        response.on("end", () => resolve({ ok: true, body: Buffer.concat(chunks) }));
        response.on("error", (error) => fail(describe(error, options.timeoutMs)));
      },
    );
    request.on("error", (error) => fail(describe(error, options.timeoutMs)));
  });
}

function describe(error: Error, timeoutMs: number): string {
  if (error.name === "AbortError" || error.name === "TimeoutError") return `no answer within ${timeoutMs} ms`;
  return error.message;
}
