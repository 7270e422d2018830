import { BlockList, isIP } from "node:net";

/**
 * Addresses a webhook must never be delivered to: the gateway's own host and networks, and
 * the cloud metadata services reachable from them. Delivery runs inside the deployment, so an
 * endpoint there would let any account call internal services with the gateway's reach.
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network", 0.0.0.0 included
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, 169.254.169.254 (metadata) included
  ["172.16.0.0", 12],
  ["192.0.0.0", 24], // protocol assignments (192.0.0.192 is a metadata address too)
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking, used for internal networks
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, 255.255.255.255 included
] as const) {
  blocked.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["::ffff:0:0", 96], // IPv4-mapped: the IPv4 rules apply to what they carry, never bypassed
  ["::", 96], // IPv4-compatible (deprecated), same reason
  ["64:ff9b:1::", 48], // local-use NAT64
  ["fc00::", 7], // unique local, fd00:ec2::254 (metadata) included
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
] as const) {
  blocked.addSubnet(network, prefix, "ipv6");
}

/** Whether `address` (an IP literal, IPv6 without brackets) may not receive deliveries. */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) throw new Error(`not an IP address: ${address}`);
  return blocked.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** The IP literal a URL's hostname is, brackets removed; undefined for a name. */
export function ipLiteralOf(hostname: string): string | undefined {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  return isIP(bare) === 0 ? undefined : bare;
}
