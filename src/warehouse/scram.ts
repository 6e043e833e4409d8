// A warehouse login's password and what PostgreSQL stores of it. The password is made here and
// shown once; the database receives only its SCRAM-SHA-256 verifier (RFC 5802, RFC 7677, in the
// form PostgreSQL stores in pg_authid.rolpassword), so the password itself never appears in SQL
// text, a server log or pg_stat_activity.
import crypto from "node:crypto";

/** PostgreSQL's own default iteration count (scram_iterations). */
const ITERATIONS = 4096;

const hmac = (key: Buffer, text: string) => crypto.createHmac("sha256", key).update(text).digest();

/**
 * The verifier of a password: SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>. The
 * password must be plain ASCII without control characters (SASLprep leaves it as it is), as
 * newPassword() makes them.
 */
export function scramVerifier(password: string, salt: Buffer = crypto.randomBytes(16), iterations = ITERATIONS): string {
  if (!/^[\x21-\x7e]+$/.test(password)) throw new Error("scramVerifier: the password must be printable ASCII");
  const salted = crypto.pbkdf2Sync(password, salt, iterations, 32, "sha256");
  const storedKey = crypto.createHash("sha256").update(hmac(salted, "Client Key")).digest();
  const serverKey = hmac(salted, "Server Key");
  return `SCRAM-SHA-256$${iterations}:${salt.toString("base64")}$${storedKey.toString("base64")}:${serverKey.toString("base64")}`;
}

/** A new password: 32 random bytes, base64url (256 bits; safe in a URL without escaping). */
export function newPassword(): string {
  return crypto.randomBytes(32).toString("base64url");
}
