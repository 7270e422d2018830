import { ipLiteralOf, isBlockedAddress } from "./address.js";

/** Every address a host name resolves to; throws when it resolves to none. */
export type Resolve = (hostname: string) => Promise<readonly string[]>;

const refused =
  "no se aceptan loopback, redes privadas, link-local, CGNAT, multicast ni direcciones de metadatos";

/**
 * What keeps `url` (shape already checked by the contract) from receiving deliveries: a host
 * that is, or resolves to, a blocked address, completing "El campo url …"; undefined when none.
 * Every address counts, so a name cannot hide an internal one behind a public one.
 */
export async function urlHostProblem(url: string, resolve: Resolve): Promise<string | undefined> {
  const { hostname } = new URL(url);
  const literal = ipLiteralOf(hostname);
  if (literal !== undefined) {
    return isBlockedAddress(literal)
      ? `apunta a una dirección privada, local o reservada (${literal}): ${refused}`
      : undefined;
  }
  // resolvers answer these from their own configuration: never ask the network
  const name = hostname.replace(/\.$/, "").toLowerCase();
  if (name === "localhost" || name.endsWith(".localhost")) {
    return `apunta a esta misma máquina (${hostname}): ${refused}`;
  }
  let addresses: readonly string[];
  try {
    addresses = await resolve(hostname);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) return `tiene un host que no se pudo resolver (${hostname})`;
  const inside = addresses.find((address) => isBlockedAddress(address));
  return inside === undefined
    ? undefined
    : `tiene un host que resuelve a una dirección privada, local o reservada (${inside}): ${refused}`;
}
