// Passwords as Koers stores them: scrypt$N$r$p$salt$hash (base64url). Checked in constant
// time; an unknown account or one without a password is checked against a fixed hash, so the
// time an answer takes does not tell whether an address has an account.
import crypto from "node:crypto";
import { promisify } from "node:util";

const scrypt = promisify(crypto.scrypt) as (password: string, salt: Buffer, keylen: number, options: crypto.ScryptOptions) => Promise<Buffer>;

// A hash of a random password nobody knows, with the CLI's parameters.
const UNKNOWN = `scrypt$16384$8$1$${crypto.randomBytes(16).toString("base64url")}$${crypto.randomBytes(32).toString("base64url")}`;

interface Parsed { N: number; r: number; p: number; salt: Buffer; hash: Buffer }

function parse(stored: string): Parsed | null {
  const m = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/.exec(stored);
  if (!m) return null;
  const [N, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // Parameters an attacker cannot have chosen, within what a sign-in may cost.
  if (N < 2 || N > 1 << 20 || (N & (N - 1)) !== 0 || r < 1 || r > 32 || p < 1 || p > 16) return null;
  const hash = Buffer.from(m[5]!, "base64url");
  if (hash.length < 16 || hash.length > 64) return null;
  return { N, r, p, salt: Buffer.from(m[4]!, "base64url"), hash };
}

/** The stored form of a new password (the CLI sets passwords with it). */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const derived = await scrypt(password, salt, 32, { N: 16384, r: 8, p: 1 });
  return `scrypt$16384$8$1$${salt.toString("base64url")}$${derived.toString("base64url")}`;
}

/** Whether the password matches the stored hash (null or malformed: never, in the same time). */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const known = stored ? parse(stored) : null;
  const h = known ?? parse(UNKNOWN)!;
  const derived = await scrypt(password, h.salt, h.hash.length,
    { N: h.N, r: h.r, p: h.p, maxmem: 256 * h.N * h.r + 1024 * 1024 });
  return crypto.timingSafeEqual(derived, h.hash) && known !== null;
}
