// Tokens of the AI connection. Access and refresh tokens are shaped like API keys: a prefix a
// scanner (and app_hidden.redigeren) recognises, 32 base62 characters and a CRC32 checksum, so a
// malformed token is refused without a database look-up. Only SHA-256 hashes are stored.
import crypto from "node:crypto";
import { newSecret, sha256, wellFormedSecret } from "../secret-shape.ts";

export const ACCESS_PREFIX = "koers_at_";
export const REFRESH_PREFIX = "koers_rt_";

export const newAccessToken = () => newSecret(ACCESS_PREFIX);
export const newRefreshToken = () => newSecret(REFRESH_PREFIX);
export const isAccessToken = (t: string | undefined) => wellFormedSecret(ACCESS_PREFIX, t);
export const isRefreshToken = (t: string | undefined) => wellFormedSecret(REFRESH_PREFIX, t);

/** A random secret for codes, cookies and form tokens (base64url, 256 bits). */
export function randomSecret(): string {
  return crypto.randomBytes(32).toString("base64url");
}

export { sha256 };

/**
 * The stored form of an access token: the hash of the resource it is for and the token. A
 * token presented at another resource (another Koers address) hashes differently and is
 * unknown there: audience binding (RFC 8707) by construction.
 */
export function accessTokenHash(resource: string, token: string): Buffer {
  return sha256(`${resource}\n${token}`);
}
