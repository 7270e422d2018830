import { ipLiteralOf, isBlockedAddress } from "./address.js";

/** Every address a host name resolves to; throws when it resolves to none. */
export type Resolve = (hostname: string) => Promise<readonly string[]>;

const refused =
  "no se aceptan loopback, redes privadas, link-local, CGNAT, multicast ni direcciones de metadatos";

/** An address a delivery may connect to: the one that was checked, nothing else. */
export interface CheckedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Where a delivery to a URL may go, or why it may not (completing "El campo url …"). */
export type Destino =
  | { readonly problem: string }
  | { readonly pinned?: CheckedAddress /* none: resolved as usual (the rule lifted) */ };

const familyOf = (address: string): 4 | 6 => (address.includes(":") ? 6 : 4);

/**
 * Resolves `url`'s host once and checks every address it gives: a host that is, or resolves
 * to, a blocked address is refused; otherwise the first address is the one to connect to, so
 * a name answered differently a moment later (DNS rebinding) cannot take the delivery
 * elsewhere. Every address counts, so a name cannot hide an internal one behind a public one.
 */
export async function checkDestino(url: string, resolve: Resolve): Promise<Destino> {
  const { hostname } = new URL(url);
  const literal = ipLiteralOf(hostname);
  if (literal !== undefined) {
    return isBlockedAddress(literal)
      ? { problem: `apunta a una dirección privada, local o reservada (${literal}): ${refused}` }
      : { pinned: { address: literal, family: familyOf(literal) } };
  }
  // resolvers answer these from their own configuration: never ask the network
  const name = hostname.replace(/\.$/, "").toLowerCase();
  if (name === "localhost" || name.endsWith(".localhost")) {
    return { problem: `apunta a esta misma máquina (${hostname}): ${refused}` };
  }
  let addresses: readonly string[];
  try {
    addresses = await resolve(hostname);
  } catch {
    addresses = [];
  }
  const first = addresses[0];
  if (first === undefined)
    return { problem: `tiene un host que no se pudo resolver (${hostname})` };
  const inside = addresses.find((address) => isBlockedAddress(address));
  return inside === undefined
    ? { pinned: { address: first, family: familyOf(first) } }
    : {
        problem: `tiene un host que resuelve a una dirección privada, local o reservada (${inside}): ${refused}`,
      };
}

/**
 * What keeps `url` (shape already checked by the contract) from receiving deliveries,
 * completing "El campo url …"; undefined when none (see checkDestino).
 */
export async function urlHostProblem(url: string, resolve: Resolve): Promise<string | undefined> {
  const destino = await checkDestino(url, resolve);
  return "problem" in destino ? destino.problem : undefined;
}
