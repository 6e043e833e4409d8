// API keys: koers_live_ + 32 base62 characters + a 6-character checksum (CRC32 of the secret
// in base62), as GitHub tokens do. A malformed key is refused without a database look-up and
// leaked keys are recognisable by scanners. Only a SHA-256 hash is stored.
import crypto from "node:crypto";
import zlib from "node:zlib";

export const PREFIX = "koers_live_";
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const VORM = /^koers_live_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;

function base62(n: number, lengte: number): string {
  let s = "";
  for (let i = 0; i < lengte; i++) {
    s = BASE62[n % 62] + s;
    n = Math.floor(n / 62);
  }
  return s;
}

function controle(geheim: string): string {
  return base62(zlib.crc32(geheim), 6);
}

function willekeurig(lengte: number): string {
  let s = "";
  while (s.length < lengte) {
    for (const b of crypto.randomBytes(lengte)) {
      if (b < 248 && s.length < lengte) s += BASE62[b % 62]; // 248 = 4 * 62: no bias
    }
  }
  return s;
}

export function sleutelHash(sleutel: string): Buffer {
  return crypto.createHash("sha256").update(sleutel).digest();
}

export function maakSleutel(): { sleutel: string; hash: Buffer; hint: string } {
  const geheim = willekeurig(32);
  const sleutel = PREFIX + geheim + controle(geheim);
  return { sleutel, hash: sleutelHash(sleutel), hint: `${PREFIX}…${sleutel.slice(-4)}` };
}

/** The hash to look up, or null when the text is not shaped like a Koers key. */
export function leesSleutel(tekst: string | undefined): Buffer | null {
  const m = tekst ? VORM.exec(tekst) : null;
  if (!m || controle(m[1]!) !== m[2]) return null;
  return sleutelHash(tekst!);
}

/** The key from an Authorization header ("Bearer <key>"). */
export function uitHeader(header: string | undefined): string | undefined {
  const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return m?.[1];
}
