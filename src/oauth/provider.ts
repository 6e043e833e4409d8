// Koers as its own OAuth 2.1 authorization server for the AI connection. The protocol (checking
// authorization requests, PKCE S256, the token, registration and revocation endpoints) is the
// MCP SDK's (mcpAuthRouter's handlers); this provider keeps its state in PostgreSQL through the
// functions of db/106_mcp_aanmelden.sql, so any instance answers any request. Assistants are
// public clients: no client secret exists, PKCE binds the code to the one who asked for it.
import type { Response } from "express";
import type { OAuthServerProvider, AuthorizationParams } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import type { OAuthRegisteredClientsStore } from "@modelcontextprotocol/sdk/server/auth/clients.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { OAuthClientInformationFull, OAuthTokenRevocationRequest, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import {
  InvalidClientError, TooManyRequestsError, InvalidClientMetadataError, InvalidGrantError, InvalidRequestError, InvalidScopeError,
  InvalidTargetError, InvalidTokenError, TemporarilyUnavailableError,
} from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { unavailable, type Sql } from "../db/connection.ts";
import { accessTokenHash, isAccessToken, isRefreshToken, newAccessToken, newRefreshToken, randomSecret, sha256 } from "./tokens.ts";
import { fetchMetadataDocument, type FetchPolicy } from "./client-metadata.ts";
import { signInPage } from "./pages.ts";

/** Where Koers is reached: the issuer (an origin) and the MCP resource (issuer + /mcp). */
export interface PublicAddress { issuer: string; resource: string; secure: boolean }

/** The address a request is answered as, and the provider that issues tokens for it. */
export interface Site { address: PublicAddress; provider: KoersOAuthProvider }
/** The site of a request, by its Host header. */
export type SiteOf = (host: string | undefined) => Site;

export const BROWSER_COOKIE = "koers_browser";

/** Headers of every sign-in page: no caching, no framing, no script, no referrer. */
export const PAGE_HEADERS: Record<string, string> = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
};

/** A resource indicator as compared: without fragment and without a trailing slash. */
export function normaliseResource(url: URL | string): string {
  const u = new URL(url);
  u.hash = "";
  return u.href.replace(/\/$/, "");
}

export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) {
      const value = v.join("=");
      return /^[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

export function browserCookie(value: string, address: PublicAddress): string {
  return `${BROWSER_COOKIE}=${value}; Path=/oauth; HttpOnly; SameSite=Strict; Max-Age=3600${address.secure ? "; Secure" : ""}`;
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Why a redirect address cannot be registered (OAuth 2.1: https, loopback http, or an app's own scheme). */
function redirectProblem(uri: string): string | null {
  let u: URL;
  try { u = new URL(uri); } catch { return `${uri} is not an address`; }
  if (u.hash) return "a redirect address has no fragment";
  if (["javascript:", "data:", "vbscript:", "file:", "blob:"].includes(u.protocol)) return `${u.protocol} is no redirect address`;
  if (u.protocol === "http:" && !LOOPBACK.has(u.hostname)) return "a redirect address over http must be a loopback address";
  return null;
}

/** The client metadata Koers keeps: what the consent page and the protocol need, within bounds. */
function checkedMetadata(m: Record<string, unknown>): Record<string, unknown> {
  const uris = m.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > 10 || !uris.every((u) => typeof u === "string" && u.length <= 2000)) {
    throw new InvalidClientMetadataError("redirect_uris: one to ten addresses");
  }
  for (const u of uris) {
    const problem = redirectProblem(u as string);
    if (problem) throw new InvalidClientMetadataError(`redirect_uris: ${problem}`);
  }
  const text = (k: string, max: number) => {
    const v = m[k];
    if (v === undefined || v === null) return {};
    if (typeof v !== "string" || v.length > max) throw new InvalidClientMetadataError(`${k}: text of at most ${max} characters`);
    return { [k]: v };
  };
  return {
    redirect_uris: uris,
    ...text("client_name", 200), ...text("client_uri", 2000), ...text("logo_uri", 2000), ...text("software_id", 200),
    ...text("software_version", 200), ...text("application_type", 20),
    // Public clients only: PKCE instead of a secret.
    token_endpoint_auth_method: "none",
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
  };
}

/**
 * The database is away: OAuth's temporarily_unavailable (the routes answer it 503 with
 * Retry-After), the database's error kept as its cause. Any other error as it is.
 */
function databaseAway(e: unknown): unknown {
  if (!unavailable(e)) return e;
  return Object.assign(new TemporarilyUnavailableError("The database cannot be reached for a moment; try again shortly"), { cause: e });
}

export interface ProviderOptions { address: () => PublicAddress; clientMetadata: FetchPolicy }

export class KoersOAuthProvider implements OAuthServerProvider {
  constructor(private readonly sql: Sql, private readonly options: ProviderOptions) {}

  private get address(): PublicAddress { return this.options.address(); }

  private async one<T>(query: Promise<readonly { r: unknown }[]>): Promise<T> {
    try {
      return (await query)[0]!.r as T;
    } catch (e) {
      throw databaseAway(e);
    }
  }

  readonly clientsStore: OAuthRegisteredClientsStore = {
    getClient: async (clientId) => {
      if (clientId.length > 2000) return undefined;
      const known = await this.one<{ client: OAuthClientInformationFull; soort: string; verouderd: boolean } | null>(
        this.sql`select app_hidden.mcp_client(${clientId}) as r`);
      if (!/^https?:\/\//i.test(clientId) || (known && !known.verouderd)) return known?.client;
      // A client ID metadata document: fetched when new or old, refused when it cannot be.
      let doc: Record<string, unknown>;
      try {
        doc = await fetchMetadataDocument(clientId, this.options.clientMetadata);
      } catch (e) {
        throw new InvalidClientError(`client ID metadata document: ${(e as Error).message}`);
      }
      if (doc.client_id !== clientId) throw new InvalidClientError("client ID metadata document: its client_id is not its address");
      if (doc.client_secret !== undefined || (doc.token_endpoint_auth_method ?? "none") !== "none") {
        throw new InvalidClientError("client ID metadata document: only public clients (token_endpoint_auth_method none)");
      }
      let metadata: Record<string, unknown>;
      try {
        metadata = checkedMetadata(doc);
      } catch (e) {
        throw new InvalidClientError(`client ID metadata document: ${(e as Error).message}`);
      }
      return this.one<OAuthClientInformationFull>(this.sql`
        select app_hidden.mcp_client_opslaan(${clientId}, 'metadata_document', ${this.sql.json(metadata as never)}) as r`);
    },
    registerClient: async (client) => {
      const metadata = checkedMetadata(client as unknown as Record<string, unknown>);
      const clientId = (client as Partial<OAuthClientInformationFull>).client_id;
      if (!clientId) throw new InvalidClientMetadataError("client_id could not be generated");
      try {
        return await this.one<OAuthClientInformationFull>(this.sql`
          select app_hidden.mcp_client_opslaan(${clientId}, 'registratie', ${this.sql.json(metadata as never)}) as r`);
      } catch (e) {
        if ((e as { detail?: string }).detail === "te_veel_verzoeken") throw new TooManyRequestsError((e as Error).message);
        throw e;
      }
    },
  };

  /** The sign-in page for a checked authorization request, bound to this browser by a cookie. */
  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    const { resource } = this.address;
    if (params.resource && normaliseResource(params.resource) !== resource) {
      throw new InvalidTargetError(`Koers issues tokens for ${resource} only`);
    }
    if (!/^[A-Za-z0-9_-]{43}$/.test(params.codeChallenge)) {
      throw new InvalidRequestError("code_challenge must be an S256 challenge (43 base64url characters)");
    }
    if ((params.state?.length ?? 0) > 1000) throw new InvalidRequestError("state is too long");
    const browser = cookieValue(res.req.headers.cookie, BROWSER_COOKIE) ?? randomSecret();
    // Scopes are not used: an assistant gets exactly the person's rights.
    const id = await this.one<string>(this.sql`
      select app_hidden.mcp_aanvraag_maken(${sha256(browser)}, ${client.client_id}, ${params.redirectUri},
        ${params.codeChallenge}, ${params.state ?? null}, ${[] as string[]}, ${resource}) as r`);
    res.status(200).set(PAGE_HEADERS).set("set-cookie", browserCookie(browser, this.address))
      .send(signInPage({ id, assistent: client.client_name ?? client.client_id, client_id: client.client_id,
        redirect_uri: params.redirectUri }));
  }

  async challengeForAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<string> {
    const challenge = code.length <= 100
      ? await this.one<string | null>(this.sql`select app_hidden.mcp_code_challenge(${sha256(code)}, ${client.client_id}) as r`)
      : null;
    if (!challenge) throw new InvalidGrantError("Unknown or expired authorization code");
    return challenge;
  }

  private checkResource(resource: URL | undefined): string {
    const own = this.address.resource;
    if (resource && normaliseResource(resource) !== own) throw new InvalidTargetError(`Koers issues tokens for ${own} only`);
    return own;
  }

  private tokens(r: { fout?: string; bericht?: string; expires_in?: number }, access: string, refresh: string): OAuthTokens {
    if (r.fout === "invalid_target") throw new InvalidTargetError(r.bericht!);
    if (r.fout === "invalid_scope") throw new InvalidScopeError(r.bericht!);
    if (r.fout) throw new InvalidGrantError(r.bericht!);
    return { access_token: access, token_type: "Bearer", expires_in: r.expires_in!, refresh_token: refresh };
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string, _verifier?: string,
                                  redirectUri?: string, resource?: URL): Promise<OAuthTokens> {
    const own = this.checkResource(resource);
    const [access, refresh] = [newAccessToken(), newRefreshToken()];
    const r = await this.one<{ fout?: string; bericht?: string; expires_in?: number }>(this.sql`
      select app_hidden.mcp_code_inwisselen(${sha256(code)}, ${client.client_id}, ${redirectUri ?? null}, ${own},
        ${accessTokenHash(own, access)}, ${sha256(refresh)}) as r`);
    return this.tokens(r, access, refresh);
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string, scopes?: string[],
                             resource?: URL): Promise<OAuthTokens> {
    const own = this.checkResource(resource);
    if (!isRefreshToken(refreshToken)) throw new InvalidGrantError("Unknown refresh token");
    const [access, refresh] = [newAccessToken(), newRefreshToken()];
    const r = await this.one<{ fout?: string; bericht?: string; expires_in?: number }>(this.sql`
      select app_hidden.mcp_vernieuwen(${sha256(refreshToken)}, ${client.client_id}, ${own},
        ${scopes?.length ? scopes : null}, ${accessTokenHash(own, access)}, ${sha256(refresh)}) as r`);
    return this.tokens(r, access, refresh);
  }

  /** What an access token is at this resource: its connection, or why it does not work. */
  async checkAccessToken(token: string | undefined): Promise<
    { status: "geldig"; auth: AuthInfo } | { status: "geen_sleutel" | "sleutel_ingetrokken"; auth?: undefined; credential?: Buffer }> {
    if (!isAccessToken(token)) return { status: "geen_sleutel" };
    const credential = accessTokenHash(this.address.resource, token);
    const t = await this.one<{ verbinding_id: string; user_id: string; client_id: string; scopes: string[]; verloopt_op: number; geldig: boolean } | null>(
      this.sql`select app_hidden.mcp_token(${credential}) as r`);
    if (!t) return { status: "geen_sleutel", credential };
    if (!t.geldig) return { status: "sleutel_ingetrokken", credential };
    return { status: "geldig", auth: {
      token, clientId: t.client_id, scopes: t.scopes, expiresAt: t.verloopt_op, resource: new URL(this.address.resource),
      extra: { credential, verbinding: t.verbinding_id, user: t.user_id },
    } };
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const r = await this.checkAccessToken(token);
    if (r.status !== "geldig") throw new InvalidTokenError(r.status === "geen_sleutel" ? "Unknown access token" : "Access token revoked or expired");
    return r.auth;
  }

  async revokeToken(client: OAuthClientInformationFull, request: OAuthTokenRevocationRequest): Promise<void> {
    const t = request.token;
    if (!isAccessToken(t) && !isRefreshToken(t)) return;
    await this.sql`select app_hidden.mcp_intrekken(array[${sha256(t)}::bytea, ${accessTokenHash(this.address.resource, t)}::bytea],
      ${client.client_id})`.catch((e) => { throw databaseAway(e); });
  }
}
