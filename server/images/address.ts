import dns from "node:dns";
import net from "node:net";

/**
 * Addresses the image proxy must never connect to: anything that is not public unicast. An
 * allow-listed host name can still resolve to one of these (a misconfigured or hostile DNS record,
 * DNS rebinding), which would turn the proxy into a way into our own network.
 */
const notPublic = new net.BlockList();
for (const [address, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata services
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  notPublic.addSubnet(address, prefix, "ipv4");
}
for (const [address, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["64:ff9b::", 96], // NAT64: would reach whatever IPv4 address it embeds
  ["64:ff9b:1::", 48], // local-use NAT64 (RFC 8215): our own network's translator
  ["100::", 64], // discard
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated, still routed somewhere)
  ["ff00::", 8], // multicast
] as const) {
  notPublic.addSubnet(address, prefix, "ipv6");
}

/**
 * Is this IP address public unicast? An IPv6 address that carries an IPv4 address (IPv4-mapped
 * ::ffff:0:0/96, -compatible ::/96, -translated ::ffff:0:0:0/96 (RFC 2765), 6to4 2002::/16,
 * Teredo 2001::/32) is judged by the IPv4
 * address(es) it carries: "::ffff:127.0.0.1" reaches 127.0.0.1. NAT64 (64:ff9b::/96 and the
 * local-use 64:ff9b:1::/48) is refused whatever it carries: our own network's gateway reaches it.
 */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  if (family === 4) return !notPublic.check(address, "ipv4");
  if (notPublic.check(address, "ipv6")) return false;
  const carried = carriedIpv4(address);
  return carried.every((ipv4) => !notPublic.check(ipv4, "ipv4"));
}

/** The IPv4 addresses an IPv6 address carries (mapped, compatible, translated, 6to4, Teredo server and client); none for others. */
export function carriedIpv4(address: string): string[] {
  const words = ipv6Words(address);
  if (!words) return [];
  const ipv4 = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
  const zeros = (from: number, to: number) => words.slice(from, to).every((word) => word === 0);
  if (zeros(0, 5) && (words[5] === 0xffff || words[5] === 0)) return [ipv4(words[6]!, words[7]!)];
  // IPv4-translated (SIIT): ::ffff:0:a.b.c.d, a stateless translator's way to the IPv4 address.
  if (zeros(0, 4) && words[4] === 0xffff && words[5] === 0) return [ipv4(words[6]!, words[7]!)];
  if (words[0] === 0x2002) return [ipv4(words[1]!, words[2]!)];
  // Teredo: the server's address in clear, the client's with every bit flipped.
  if (words[0] === 0x2001 && words[1] === 0) return [ipv4(words[2]!, words[3]!), ipv4(words[6]! ^ 0xffff, words[7]! ^ 0xffff)];
  return [];
}

/** The eight 16-bit words of a valid IPv6 address (with "::" and a dotted IPv4 tail expanded). */
function ipv6Words(address: string): number[] | null {
  let text = address.split("%")[0]!.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const part = (piece: string | undefined) => (piece ? piece.split(":").map((word) => parseInt(word, 16)) : []);
  const first = part(head);
  const last = part(tail);
  const words = tail === undefined ? first : [...first, ...Array<number>(8 - first.length - last.length).fill(0), ...last];
  return words.length === 8 && words.every((word) => Number.isInteger(word) && word >= 0 && word <= 0xffff) ? words : null;
}

/**
 * A DNS lookup for node:http that refuses host names resolving to a non-public address. It runs for
 * the connection itself, so the address checked is the address connected to (no second lookup that
 * could answer differently).
 */
export const publicOnlyLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, "");
    const refused = addresses.find((entry) => !isPublicAddress(entry.address));
    if (refused || addresses.length === 0) {
      const refusal: NodeJS.ErrnoException = new Error(`${hostname} resolves to ${refused?.address ?? "nothing"}, not a public address`);
      refusal.code = "EADDRNOTPUBLIC";
      return callback(refusal, "");
    }
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};
