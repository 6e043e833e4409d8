// The AI connection on Koers's HTTP server: the authorization server (sign-in) and the /mcp door.
import type { FastifyInstance } from "fastify";
import type { Sql } from "../db/connection.ts";
import { KoersOAuthProvider, type PublicAddress, type Site } from "../oauth/provider.ts";
import { registerOAuthRoutes } from "../oauth/routes.ts";
import type { FetchPolicy } from "../oauth/client-metadata.ts";
import { registerMcpDoor } from "./door.ts";

export interface McpOptions {
  /** Koers's public address (KOERS_PUBLIC_URL, or where it listens); read per request. */
  publicUrl: () => string;
  /**
   * No KOERS_PUBLIC_URL: a request to a loopback spelling of Koers's own address (localhost,
   * 127.0.0.1, [::1], same port) is answered as that address, so an assistant given
   * http://localhost:3000/mcp finds its resource there.
   */
  loopbackAliases?: boolean;
  /** Browser origins allowed to call /mcp besides Koers's own (KOERS_ALLOWED_ORIGINS). */
  allowedOrigins: readonly string[];
  /** Tests only: fetch client metadata documents over http and from private addresses. */
  clientMetadata?: FetchPolicy;
}

/** The spellings of this machine that a loopback Koers answers to. */
export const LOOPBACK_NAMES: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

/** The issuer is Koers's origin; the protected resource its /mcp. */
export function publicAddress(base: string): PublicAddress {
  const u = new URL(base);
  return { issuer: u.origin, resource: `${u.origin}/mcp`, secure: u.protocol === "https:" };
}

/** The origin a request is answered as: its own Host when that is a loopback spelling of `base`, else `base`. */
export function originFor(base: string, host: string | undefined, loopbackAliases: boolean): string {
  const own = new URL(base);
  if (loopbackAliases && host && /^[\w.:[\]-]{1,300}$/.test(host)) {
    try {
      const asked = new URL(`${own.protocol}//${host}`);
      if (LOOPBACK_NAMES.includes(asked.hostname) && asked.port === own.port) return asked.origin;
    } catch { /* not a host name: answered as base */ }
  }
  return own.origin;
}

export async function mountMcp(app: FastifyInstance, sql: Sql, options: McpOptions): Promise<void> {
  const clientMetadata = options.clientMetadata ?? { allowPrivate: false };
  // One provider per address answered (a handful at most): each binds its tokens to its resource.
  const sites = new Map<string, Site>();
  const site = (host: string | undefined): Site => {
    const origin = originFor(options.publicUrl(), host, options.loopbackAliases ?? false);
    let s = sites.get(origin);
    if (!s) {
      const address = publicAddress(origin);
      s = { address, provider: new KoersOAuthProvider(sql, { address: () => address, clientMetadata }) };
      sites.set(origin, s);
    }
    return s;
  };
  await registerOAuthRoutes(app, sql, site);
  await registerMcpDoor(app, sql, { site, allowedOrigins: options.allowedOrigins });
}
