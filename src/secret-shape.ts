// The shape of Koers's secrets (API keys, the AI connection's access and refresh tokens): a fixed
// prefix, 32 random base62 characters and a 6-character checksum (CRC32 of the random part), as
// GitHub tokens do. A malformed secret is refused without a database look-up, and scanners (and
// app_hidden.redigeren, which keeps them out of every log) recognise a leaked one by its prefix.
import crypto from "node:crypto";
import zlib from "node:zlib";

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

/** A new secret with this prefix. */
export function newSecret(prefix: string): string {
  const random = randomBase62(32);
  return prefix + random + base62(zlib.crc32(random), 6);
}

/** Whether a text has the shape of a secret with this prefix, its checksum included. */
export function wellFormedSecret(prefix: string, text: string | undefined): text is string {
  if (!text?.startsWith(prefix)) return false;
  const m = /^([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/.exec(text.slice(prefix.length));
  return !!m && base62(zlib.crc32(m[1]!), 6) === m[2];
}

export function sha256(text: string): Buffer {
  return crypto.createHash("sha256").update(text).digest();
}
