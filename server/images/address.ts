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
  ["100::", 64], // discard
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated, still routed somewhere)
  ["ff00::", 8], // multicast
] as const) {
  notPublic.addSubnet(address, prefix, "ipv6");
}

/** Is this IP address public unicast? (IPv4-mapped IPv6 addresses are judged by their IPv4 part.) */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  return !notPublic.check(address, family === 4 ? "ipv4" : "ipv6");
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
