import { describe, expect, it } from "vitest";
import { carriedIpv4, isPublicAddress } from "./address.ts";
import { fetchImageSource } from "./fetch.ts";

// IPv6 addresses that carry an IPv4 address are judged by what they carry, so "::ffff:127.0.0.1"
// and friends cannot reach our own network; NAT64 prefixes are refused.

describe("IPv6 addresses that carry IPv4 ones", () => {
  it.each([
    "::ffff:127.0.0.1", // IPv4-mapped
    "::ffff:7f00:1",
    "::ffff:169.254.169.254",
    "::127.0.0.1", // IPv4-compatible
    "::7f00:1",
    "::10.0.0.1",
    "::ffff:0:127.0.0.1", // IPv4-translated
    "::ffff:0:7f00:1",
    "::ffff:0:a9fe:a9fe",
    "2002:7f00:1::", // 6to4 carrying 127.0.0.1
    "2002:c0a8:101::1", // 6to4 carrying 192.168.1.1
    "2002:a9fe:a9fe::1", // 6to4 carrying 169.254.169.254
    "2001:0:7f00:1::1", // Teredo, server 127.0.0.1
    "2001:0:4136:e378:8000:63bf:f5ff:fffe", // Teredo, client 10.0.0.1 (bits flipped)
    "64:ff9b::7f00:1", // NAT64
    "64:ff9b::8.8.8.8",
    "64:ff9b:1::a00:1", // local-use NAT64
    "64:ff9b:1:ffff::1",
  ])("refuses %s", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(["::ffff:93.184.215.14", "::ffff:0:93.184.215.14", "2002:5db8:d70e::1", "2001:0:4136:e378:8000:63bf:a247:28f1", "2606:4700::1111"])("still takes %s, which reaches a public address", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it("reads the carried addresses", () => {
    expect(carriedIpv4("::ffff:127.0.0.1")).toEqual(["127.0.0.1"]);
    expect(carriedIpv4("::ffff:0:7f00:1")).toEqual(["127.0.0.1"]);
    expect(carriedIpv4("2002:c0a8:101::1")).toEqual(["192.168.1.1"]);
    expect(carriedIpv4("2001:0:4136:e378:8000:63bf:f5ff:fffe")).toEqual(["65.54.227.120", "10.0.0.1"]);
    expect(carriedIpv4("2606:4700::1111")).toEqual([]);
  });

  it("refuses to fetch an image from an IPv6 literal carrying a loopback address, without connecting", async () => {
    const answer = await fetchImageSource(new URL("http://[::ffff:127.0.0.1]:9/x.png"), { timeoutMs: 1_000, maxBytes: 1_000, allowPrivateAddresses: false });
    expect(answer).toEqual({ ok: false, reason: "::ffff:7f00:1 is not a public address" });
  });

  it("refuses an IPv4-translated literal carrying a loopback address, without connecting", async () => {
    const answer = await fetchImageSource(new URL("http://[::ffff:0:7f00:1]:9/x.png"), { timeoutMs: 1_000, maxBytes: 1_000, allowPrivateAddresses: false });
    expect(answer).toEqual({ ok: false, reason: "::ffff:0:7f00:1 is not a public address" });
  });
});
