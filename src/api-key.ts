// API keys: koers_live_ + 32 base62 characters + a 6-character checksum (CRC32 of the secret
// in base62), as GitHub tokens do. A malformed key is refused without a database look-up and
// leaked keys are recognisable by scanners. Only a SHA-256 hash is stored.
import crypto from "node:crypto";
import zlib from "node:zlib";

export const PREFIX = "koers_live_";
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KEY_SHAPE = /^koers_live_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;

function base62(n: number, length: number): string {
  let s = "";
  for (let i = 0; i < length; i++) {
    s = BASE62[n % 62] + s;
    n = Math.floor(n / 62);
  }
  return s;
}

function checksum(secret: string): string {
  return base62(zlib.crc32(secret), 6);
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

export function hashApiKey(key: string): Buffer {
  return crypto.createHash("sha256").update(key).digest();
}

export function createApiKey(): { key: string; hash: Buffer; hint: string } {
  const secret = randomBase62(32);
  const key = PREFIX + secret + checksum(secret);
  return { key, hash: hashApiKey(key), hint: `${PREFIX}…${key.slice(-4)}` };
}

/** The hash to look up, or null when the text is not shaped like a Koers key. */
export function parseApiKey(text: string | undefined): Buffer | null {
  const m = text ? KEY_SHAPE.exec(text) : null;
  if (!m || checksum(m[1]!) !== m[2]) return null;
  return hashApiKey(text!);
}

/** The key from an Authorization header ("Bearer <key>"). */
export function bearerToken(header: string | undefined): string | undefined {
  const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return m?.[1];
}
