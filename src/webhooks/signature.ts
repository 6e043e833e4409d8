// The signature of a delivery (interface, "Signature verification"): HMAC-SHA256 keyed with
// the signing secret over `t`, a full stop and the raw body, hex; sent as
// `X-Service-Signature: t=<unix seconds>,v1=<hex>` (no spaces). The scheme is Stripe's, so
// Stripe's libraries verify it too (the tests use one as an independent check).
import crypto from "node:crypto";

export const SECRET_PREFIX = "koers_whsec_";

/** A new signing secret: shown once when the webhook is made, never logged. */
export function createSigningSecret(): string {
  return SECRET_PREFIX + crypto.randomBytes(32).toString("base64url");
}

export function signatureHeader(secret: string, unixSeconds: number, rawBody: string): string {
  const v1 = crypto.createHmac("sha256", secret).update(`${unixSeconds}.${rawBody}`).digest("hex");
  return `t=${unixSeconds},v1=${v1}`;
}
