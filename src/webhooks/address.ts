// Where a webhook may point: https, a host name (no IP literal in any notation, no user info),
// and, resolved, no address inside a private network (SSRF). The address is checked when the
// webhook is made and again, resolved anew, at every delivery; the connection then goes to the
// addresses that were checked (see deliver.ts), so a name that changes its answer in between
// (DNS rebinding) reaches nothing it should not.
import dns from "node:dns/promises";
import net from "node:net";

/** A refusal meant for people (Dutch); the CLI prints it and exits with 1. */
export class AddressRefused extends Error {}

export interface ResolvedAddress { address: string; family: 4 | 6 }

export interface AddressPolicy {
  /** KOERS_WEBHOOK_PRIVATE=aan: private addresses are allowed (tests only). */
  allowPrivate: boolean;
  /** KOERS_WEBHOOK_RESOLVE: names answered without DNS (tests only), like /etc/hosts. */
  hosts: Map<string, ResolvedAddress[]>;
}

/** The policy from the environment. */
export function addressPolicy(env: NodeJS.ProcessEnv = process.env): AddressPolicy {
  const hosts = new Map<string, ResolvedAddress[]>();
  for (const entry of (env.KOERS_WEBHOOK_RESOLVE ?? "").split(",").map((e) => e.trim()).filter(Boolean)) {
    const eq = entry.indexOf("=");
    const name = entry.slice(0, eq).trim().toLowerCase();
    const address = entry.slice(eq + 1).trim();
    const family = net.isIP(address);
    if (eq < 1 || family === 0) throw new Error(`KOERS_WEBHOOK_RESOLVE: expected name=address, got "${entry}"`);
    hosts.set(name, [...(hosts.get(name) ?? []), { address, family: family as 4 | 6 }]);
  }
  return { allowPrivate: env.KOERS_WEBHOOK_PRIVATE === "aan", hosts };
}

/**
 * The address as it is stored, or a refusal: https, a host name, no user info. The WHATWG
 * parser reads every IPv4 notation (2130706433, 0x7f.1, 0177.0.0.1, 127.1) as the address it
 * is, so an IP literal is recognised however it is written.
 */
export function checkWebhookUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new AddressRefused("Het adres is geen geldige URL.");
  }
  if (url.protocol !== "https:") throw new AddressRefused("Het adres moet https gebruiken.");
  if (url.username !== "" || url.password !== "") {
    throw new AddressRefused("Het adres mag geen gebruikersnaam of wachtwoord bevatten.");
  }
  const host = url.hostname;
  if (host.startsWith("[") || net.isIP(host) !== 0) {
    throw new AddressRefused(`Het adres moet een domeinnaam gebruiken, geen IP-adres (${host}).`);
  }
  if (host === "") throw new AddressRefused("Het adres mist een domeinnaam.");
  url.hash = "";
  if (url.href.length > 2048) throw new AddressRefused("Het adres is langer dan 2048 tekens.");
  return url;
}

function ipv4Number(address: string): number {
  return address.split(".").reduce((n, part) => n * 256 + Number(part), 0);
}

const IPV4_RANGES: [string, number, string][] = [
  ["0.0.0.0", 8, "niet routeerbaar"],
  ["10.0.0.0", 8, "privé"],
  ["100.64.0.0", 10, "CGNAT"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"],
  ["172.16.0.0", 12, "privé"],
  ["192.0.0.0", 24, "gereserveerd"],
  ["192.0.2.0", 24, "gereserveerd (documentatie)"],
  ["192.88.99.0", 24, "gereserveerd"],
  ["192.168.0.0", 16, "privé"],
  ["198.18.0.0", 15, "gereserveerd (benchmark)"],
  ["198.51.100.0", 24, "gereserveerd (documentatie)"],
  ["203.0.113.0", 24, "gereserveerd (documentatie)"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "gereserveerd"],
];

function ipv4Reason(address: string): string | null {
  const n = ipv4Number(address);
  for (const [base, bits, reason] of IPV4_RANGES) {
    const size = 2 ** (32 - bits);
    const start = ipv4Number(base);
    if (n >= start && n < start + size) return reason;
  }
  return null;
}

/** The 16 bytes of an IPv6 address (as net.isIP accepts it, an embedded IPv4 part included). */
function ipv6Bytes(address: string): number[] {
  let text = address.split("%")[0]!.toLowerCase();
  const tail: number[] = [];
  if (text.includes(".")) {
    const i = text.lastIndexOf(":");
    const n = ipv4Number(text.slice(i + 1));
    tail.push((n >>> 16) & 0xffff, n & 0xffff);
    text = text.slice(0, i + 1);
    if (!text.endsWith("::")) text = text.slice(0, -1);
  }
  const [head, rest] = text.includes("::") ? text.split("::") as [string, string] : [text, null];
  const parse = (s: string) => (s === "" ? [] : s.split(":").map((h) => parseInt(h, 16)));
  const front = parse(head);
  const back = rest === null ? [] : parse(rest);
  const groups = rest === null
    ? [...front, ...tail]
    : [...front, ...new Array(8 - front.length - back.length - tail.length).fill(0), ...back, ...tail];
  return groups.flatMap((g) => [(g >> 8) & 0xff, g & 0xff]);
}

function startsWith(bytes: number[], prefix: number[], bits: number): boolean {
  for (let i = 0; i < bits; i++) {
    const byte = Math.floor(i / 8), mask = 0x80 >> (i % 8);
    if ((bytes[byte]! & mask) !== (prefix[byte]! & mask)) return false;
  }
  return true;
}

const v6 = (text: string) => ipv6Bytes(text);
const IPV6_RANGES: [number[], number, string][] = [
  [v6("::"), 128, "niet gespecificeerd"],
  [v6("::1"), 128, "loopback"],
  [v6("::"), 96, "gereserveerd (IPv4-compatibel)"],
  [v6("64:ff9b:1::"), 48, "gereserveerd (NAT64)"],
  [v6("100::"), 64, "gereserveerd"],
  [v6("2001::"), 23, "gereserveerd"],
  [v6("2001:db8::"), 32, "gereserveerd (documentatie)"],
  [v6("2002::"), 16, "gereserveerd (6to4)"],
  [v6("3fff::"), 20, "gereserveerd (documentatie)"],
  [v6("fc00::"), 7, "privé"],
  [v6("fe80::"), 10, "link-local"],
  [v6("fec0::"), 10, "gereserveerd (site-local)"],
  [v6("ff00::"), 8, "multicast"],
];

/**
 * Why a delivery must not go to this address (private, loopback, link-local, CGNAT,
 * multicast, reserved), or null when it is a public address. IPv6 is public only inside
 * 2000::/3 outside the reserved blocks; an IPv4 address mapped into IPv6 (::ffff:0:0/96) or
 * translated by NAT64 (64:ff9b::/96) is judged as the IPv4 address it carries.
 */
export function forbiddenReason(address: string): string | null {
  const family = net.isIP(address);
  if (family === 4) return ipv4Reason(address);
  if (family !== 6) return "geen IP-adres";
  const bytes = ipv6Bytes(address);
  const embedded = () => bytes.slice(12).join(".");
  if (startsWith(bytes, v6("::ffff:0:0"), 96)) return ipv4Reason(embedded());
  if (startsWith(bytes, v6("64:ff9b::"), 96)) return ipv4Reason(embedded());
  for (const [prefix, bits, reason] of IPV6_RANGES) {
    if (startsWith(bytes, prefix, bits)) return reason;
  }
  if (!startsWith(bytes, v6("2000::"), 3)) return "gereserveerd";
  return null;
}

// A name is looked up at most once a second per process (concurrent deliveries share the
// look-up): a burst of deliveries to one receiver does not cost a look-up each. Every delivery
// still checks the addresses it connects to, and connects to nothing else.
const RESOLVE_TTL_MS = 1000;
const resolved = new Map<string, { at: number; addresses: Promise<ResolvedAddress[]> }>();

function lookup(name: string): Promise<ResolvedAddress[]> {
  const cached = resolved.get(name);
  if (cached && performance.now() - cached.at < RESOLVE_TTL_MS) return cached.addresses;
  const addresses = dns.lookup(name, { all: true, verbatim: true }) as Promise<ResolvedAddress[]>;
  resolved.set(name, { at: performance.now(), addresses });
  addresses.catch(() => resolved.delete(name));
  if (resolved.size > 1000) resolved.delete(resolved.keys().next().value!);
  return addresses;
}

/**
 * Resolves a host name and checks every address it gives: one forbidden address refuses the
 * whole name (a name that mixes a public and a private address is not trusted either way).
 */
export async function resolveChecked(host: string, policy: AddressPolicy): Promise<ResolvedAddress[]> {
  const name = host.toLowerCase().replace(/\.$/, "");
  let addresses = policy.hosts.get(name);
  if (!addresses) {
    try {
      addresses = await lookup(name);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new AddressRefused(code === "ENOTFOUND" || code === "ENODATA"
        ? `De naam ${name} bestaat niet (DNS).`
        : `De naam ${name} kon niet worden opgezocht (${code ?? "DNS-fout"}).`);
    }
  }
  if (addresses.length === 0) throw new AddressRefused(`De naam ${name} heeft geen adres.`);
  if (!policy.allowPrivate) {
    for (const a of addresses) {
      const reason = forbiddenReason(a.address);
      if (reason) throw new AddressRefused(`Adres niet toegestaan: ${name} wijst naar ${a.address} (${reason}).`);
    }
  }
  return addresses;
}
