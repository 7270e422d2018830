import ipaddr from "ipaddr.js";

/**
 * Networks a webhook must never be delivered to: the gateway's own host and networks, and the
 * cloud metadata services reachable from them. Delivery runs inside the deployment, so an
 * endpoint there would let any account call internal services with the gateway's reach.
 */
const blockedNetworks = [
  "0.0.0.0/8", // "this network", 0.0.0.0 included
  "10.0.0.0/8",
  "100.64.0.0/10", // carrier-grade NAT
  "127.0.0.0/8",
  "169.254.0.0/16", // link-local, 169.254.169.254 (metadata) included
  "172.16.0.0/12",
  "192.0.0.0/24", // protocol assignments (192.0.0.192 is a metadata address too)
  "192.168.0.0/16",
  "198.18.0.0/15", // benchmarking, used for internal networks
  "224.0.0.0/4", // multicast
  "240.0.0.0/4", // reserved, 255.255.255.255 included
  "::/128", // unspecified
  "::1/128", // loopback
  "::/96", // IPv4-compatible (deprecated): refused whatever they carry
  "64:ff9b:1::/48", // local-use NAT64
  "fc00::/7", // unique local, fd00:ec2::254 (metadata) included
  "fe80::/10", // link-local
  "ff00::/8", // multicast
].map((cidr) => ipaddr.parseCIDR(cidr));

/** Whether `address` (an IP literal, IPv6 without brackets) may not receive deliveries. */
export function isBlockedAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) throw new Error(`not an IP address: ${address}`);
  // an IPv4-mapped IPv6 address (::ffff:a.b.c.d) is judged by the IPv4 address it carries
  const ip = ipaddr.process(address);
  return blockedNetworks.some(
    ([network, bits]) => network.kind() === ip.kind() && ip.match(network, bits),
  );
}

/**
 * The IP literal a URL's hostname is, brackets removed; undefined for a name. The URL parser
 * has already written any IPv4 form (`2130706433`, `0x7f.1`) as four decimal parts.
 */
export function ipLiteralOf(hostname: string): string | undefined {
  if (hostname.startsWith("[") && hostname.endsWith("]")) {
    const inner = hostname.slice(1, -1);
    return ipaddr.IPv6.isValid(inner) ? inner : undefined;
  }
  return ipaddr.IPv4.isValidFourPartDecimal(hostname) ? hostname : undefined;
}
