// Tokens of the AI connection. Access and refresh tokens are shaped like API keys: a prefix a
// scanner (and app_hidden.redigeren) recognises, 32 base62 characters and a CRC32 checksum, so a
// malformed token is refused without a database look-up. Only SHA-256 hashes are stored.
import crypto from "node:crypto";
import zlib from "node:zlib";

export const ACCESS_PREFIX = "koers_at_";
export const REFRESH_PREFIX = "koers_rt_";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

function base62(n: number, length: number): string {
  let s = "";
  for (let i = 0; i < length; i++) {
    s = BASE62[n % 62] + s;
    n = Math.floor(n / 62);
  }
  return s;
}

function randomBase62(length: number): string {
  let s = "";
  while (s.length < length) {
    for (const b of crypto.randomBytes(length)) {
      if (b < 248 && s.length < length) s += BASE62[b % 62]; // 248 = 4 * 62: no bias
    }
  }
  return s;
}

function make(prefix: string): string {
  const secret = randomBase62(32);
  return prefix + secret + base62(zlib.crc32(secret), 6);
}

function wellFormed(prefix: string, text: string | undefined): text is string {
  if (!text?.startsWith(prefix)) return false;
  const m = /^([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/.exec(text.slice(prefix.length));
  return !!m && base62(zlib.crc32(m[1]!), 6) === m[2];
}

export const newAccessToken = () => make(ACCESS_PREFIX);
export const newRefreshToken = () => make(REFRESH_PREFIX);
export const isAccessToken = (t: string | undefined) => wellFormed(ACCESS_PREFIX, t);
export const isRefreshToken = (t: string | undefined) => wellFormed(REFRESH_PREFIX, t);

/** A random secret for codes, cookies and form tokens (base64url, 256 bits). */
export function randomSecret(): string {
  return crypto.randomBytes(32).toString("base64url");
}

export function sha256(text: string): Buffer {
  return crypto.createHash("sha256").update(text).digest();
}

/**
 * The stored form of an access token: the hash of the resource it is for and the token. A
 * token presented at another resource (another Koers address) hashes differently and is
 * unknown there: audience binding (RFC 8707) by construction.
 */
export function accessTokenHash(resource: string, token: string): Buffer {
  return sha256(`${resource}\n${token}`);
}
