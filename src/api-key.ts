// API keys: koers_live_ and the shape of src/secret-shape.ts (32 base62 characters and a
// checksum), so a malformed key is refused without a database look-up and a leaked one is
// recognisable. Only its SHA-256 hash is stored.
import { newSecret, sha256, wellFormedSecret } from "./secret-shape.ts";

export const PREFIX = "koers_live_";

export function hashApiKey(key: string): Buffer {
  return sha256(key);
}

export function createApiKey(): { key: string; hash: Buffer; hint: string } {
  const key = newSecret(PREFIX);
  return { key, hash: hashApiKey(key), hint: `${PREFIX}…${key.slice(-4)}` };
}

/** The hash to look up, or null when the text is not shaped like a Koers key. */
export function parseApiKey(text: string | undefined): Buffer | null {
  return wellFormedSecret(PREFIX, text) ? hashApiKey(text) : null;
}

/** The key from an Authorization header ("Bearer <key>"). */
export function bearerToken(header: string | undefined): string | undefined {
  const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return m?.[1];
}
