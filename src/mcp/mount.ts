// The AI connection on Koers's HTTP server: the authorization server (sign-in) and the /mcp door.
import type { FastifyInstance } from "fastify";
import type { Sql } from "../db/connection.ts";
import { KoersOAuthProvider, type PublicAddress } from "../oauth/provider.ts";
import { registerOAuthRoutes } from "../oauth/routes.ts";
import type { FetchPolicy } from "../oauth/client-metadata.ts";
import { registerMcpDoor } from "./door.ts";

export interface McpOptions {
  /** Koers's public address (KOERS_PUBLIC_URL, or where it listens); read per request. */
  publicUrl: () => string;
  /** Browser origins allowed to call /mcp besides Koers's own (KOERS_ALLOWED_ORIGINS). */
  allowedOrigins: readonly string[];
  /** Tests only: fetch client metadata documents over http and from private addresses. */
  clientMetadata?: FetchPolicy;
}

/** The issuer is Koers's origin; the protected resource its /mcp. */
export function publicAddress(base: string): PublicAddress {
  const u = new URL(base);
  return { issuer: u.origin, resource: `${u.origin}/mcp`, secure: u.protocol === "https:" };
}

export async function mountMcp(app: FastifyInstance, sql: Sql, options: McpOptions): Promise<void> {
  const address = () => publicAddress(options.publicUrl());
  const provider = new KoersOAuthProvider(sql, { address, clientMetadata: options.clientMetadata ?? { allowPrivate: false } });
  await registerOAuthRoutes(app, sql, provider, address);
  await registerMcpDoor(app, sql, { provider, address, allowedOrigins: options.allowedOrigins });
}
