// Client ID metadata documents: an assistant may use the https address of a JSON document about
// itself as its client_id instead of registering. Koers fetches that document, which means a
// request to an address anyone can choose, so: https and a host name only, no address on a
// private, loopback, link-local or otherwise reserved network (checked after DNS resolution, and
// the connection goes to the address that was checked), no redirects, a short timeout and a
// small body. Tests may allow plain http and private addresses (never a setting of a deployment).
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import type { LookupFunction } from "node:net";

export interface FetchPolicy { allowPrivate: boolean }

const MAX_BYTES = 16 * 1024;
const TIMEOUT_MS = 5000;

const reserved = new net.BlockList();
for (const [a, p] of [["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16],
  ["172.16.0.0", 12], ["192.0.0.0", 24], ["192.0.2.0", 24], ["192.88.99.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15],
  ["198.51.100.0", 24], ["203.0.113.0", 24], ["224.0.0.0", 4], ["240.0.0.0", 4]] as const) reserved.addSubnet(a, p, "ipv4");
for (const [a, p] of [["::", 128], ["::1", 128], ["::ffff:0:0", 96], ["64:ff9b::", 96], ["64:ff9b:1::", 48], ["100::", 64],
  ["2001::", 23], ["2001:db8::", 32], ["2002::", 16], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8]] as const) reserved.addSubnet(a, p, "ipv6");

export function isReservedAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return true;
  return reserved.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** Why an address cannot be a client ID metadata document, or null when it can be fetched. */
export function metadataUrlProblem(clientId: string, policy: FetchPolicy): string | null {
  let u: URL;
  try { u = new URL(clientId); } catch { return "client_id is not an address"; }
  if (u.href !== clientId) return "client_id must be written as a normalised URL";
  if (u.protocol !== "https:" && !(policy.allowPrivate && u.protocol === "http:")) return "a metadata document must be served over https";
  if (u.username || u.password) return "a metadata document address has no user info";
  if (u.hash) return "a metadata document address has no fragment";
  if (u.pathname === "/" || u.pathname === "") return "a metadata document address has a path";
  if (!policy.allowPrivate && net.isIP(u.hostname.replace(/^\[|\]$/g, "")) !== 0) return "a metadata document address names a host, not an IP address";
  return null;
}

/** A DNS look-up that refuses reserved addresses; the socket connects to what it returns. */
function safeLookup(policy: FetchPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, verbatim: true }, (err, addresses) => {
      if (err) return callback(err, "", 0);
      const usable = addresses.filter((a) => policy.allowPrivate || !isReservedAddress(a.address));
      const wanted = options.family === 4 || options.family === 6 ? usable.filter((a) => a.family === options.family) : usable;
      if (wanted.length === 0) {
        return callback(Object.assign(new Error(`${hostname} has no public address`), { code: "ENOTFOUND" }), "", 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, wanted);
      callback(null, wanted[0]!.address, wanted[0]!.family);
    });
  };
}

/** Fetches a metadata document: its JSON, or throws an Error whose message says why not. */
export function fetchMetadataDocument(clientId: string, policy: FetchPolicy): Promise<Record<string, unknown>> {
  const problem = metadataUrlProblem(clientId, policy);
  if (problem) return Promise.reject(new Error(problem));
  const u = new URL(clientId);
  const get = u.protocol === "https:" ? https.get : http.get;
  return new Promise((resolve, reject) => {
    const req = get(u, { lookup: safeLookup(policy), timeout: TIMEOUT_MS, headers: { accept: "application/json" } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return reject(new Error(`the metadata document answered ${res.statusCode} (redirects are not followed)`));
      }
      if (!/^application\/(.+\+)?json\b/i.test(res.headers["content-type"] ?? "")) {
        res.resume();
        return reject(new Error("the metadata document is not JSON"));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (c: Buffer) => {
        size += c.length;
        if (size > MAX_BYTES) {
          req.destroy(new Error(`the metadata document is larger than ${MAX_BYTES} bytes`));
        } else {
          chunks.push(c);
        }
      });
      res.on("end", () => {
        try {
          const doc = JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
          if (!doc || typeof doc !== "object" || Array.isArray(doc)) throw new Error("the metadata document is not a JSON object");
          resolve(doc as Record<string, unknown>);
        } catch (e) {
          reject(e instanceof SyntaxError ? new Error("the metadata document is not valid JSON") : e);
        }
      });
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error("the metadata document did not arrive in time")));
    req.on("error", reject);
  });
}
