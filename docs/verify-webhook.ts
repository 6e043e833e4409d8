// How a receiver checks a Koers webhook (docs/webhooks.md). Runnable as a small receiver:
//
//   KOERS_WEBHOOK_SECRET=koers_whsec_... npx --no-install tsx docs/verify-webhook.ts      (PORT, default 8080)
//
// It serves https, as Koers delivers only to https: with the certificate and key of TLS_CERT and
// TLS_KEY (PEM files), or else a self-signed one for localhost that it makes with openssl and
// names, for trying it out (a Koers worker then needs NODE_EXTRA_CA_CERTS=<that file> and, for a
// receiver on this machine, KOERS_WEBHOOK_PRIVATE=aan). Or import verifyWebhook into your own
// receiver: it needs only Node's crypto.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import type http from "node:http";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** A `t` more than this many seconds from now, in the past or the future, is refused. */
export const TOLERANCE_SECONDS = 300;

export interface WebhookMessage {
  id: string;
  gebeurtenis: string;
  tijdstip: string;
  organisatie_id: string;
  gegevens: Record<string, unknown>;
}

export class WebhookRejected extends Error {}

/**
 * Checks the X-Service-Signature header (`t=<unix seconds>,v1=<hex>`) against the raw body,
 * exactly as received (not JSON parsed and serialised again), and returns the message.
 */
export function verifyWebhook(rawBody: string | Buffer, signatureHeader: string | undefined, secret: string,
  nowSeconds: number = Date.now() / 1000): WebhookMessage {
  let t: number | null = null;
  const signatures: Buffer[] = [];
  for (const part of (signatureHeader ?? "").split(",")) {
    const [key, value] = part.split("=", 2);
    if (key === "t" && value && /^\d+$/.test(value)) t = Number(value);
    if (key === "v1" && value && /^[0-9a-f]{64}$/.test(value)) signatures.push(Buffer.from(value, "hex"));
  }
  if (t === null || signatures.length === 0) throw new WebhookRejected("X-Service-Signature is missing or malformed");
  // 1. The time: a message signed long ago (or ahead) may be a replay.
  if (Math.abs(nowSeconds - t) > TOLERANCE_SECONDS) throw new WebhookRejected(`t is more than ${TOLERANCE_SECONDS} s off`);
  // 2. HMAC-SHA256 keyed with the signing secret over `t`, a full stop and the raw body.
  const expected = crypto.createHmac("sha256", secret).update(`${t}.`).update(rawBody).digest();
  // 3. Equal length and a constant-time comparison (a later secret may add a second v1).
  if (!signatures.some((s) => s.length === expected.length && crypto.timingSafeEqual(s, expected))) {
    throw new WebhookRejected("the signature does not match");
  }
  return JSON.parse(Buffer.isBuffer(rawBody) ? rawBody.toString("utf8") : rawBody) as WebhookMessage;
}

/**
 * A receiver: answers 200 at once (Koers waits at most ten seconds) and 400 to anything that
 * does not verify. A message can arrive more than once (retries, redeliveries): its `id`
 * recognises a duplicate; the `X-Service-Delivery` header differs per attempt.
 */
export function receiver(secret: string, onMessage: (m: WebhookMessage) => void): http.RequestListener {
  const seen = new Set<string>();
  return (req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > 1024 * 1024) req.destroy();
      else chunks.push(chunk);
    });
    req.on("end", () => {
      let message: WebhookMessage;
      try {
        message = verifyWebhook(Buffer.concat(chunks), req.headers["x-service-signature"] as string | undefined, secret);
      } catch (e) {
        res.writeHead(400, { "content-type": "text/plain" }).end(`${(e as Error).message}\n`);
        return;
      }
      res.writeHead(200, { "content-type": "text/plain" }).end("ok\n");
      if (seen.has(message.id)) return;
      seen.add(message.id);
      onMessage(message);
    });
  };
}

/** A self-signed certificate for localhost, made with openssl, for trying the receiver out. */
function selfSigned(): { cert: string; key: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "koers-receiver-"));
  const [cert, key] = [path.join(dir, "cert.pem"), path.join(dir, "key.pem")];
  execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
    "-keyout", key, "-out", cert, "-days", "7", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost"], { stdio: "ignore" });
  process.on("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => process.exit(0));
  return { cert, key };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const secret = process.env.KOERS_WEBHOOK_SECRET;
  if (!secret) {
    console.error("set KOERS_WEBHOOK_SECRET to the signing secret `koers webhook create` printed");
    process.exit(2);
  }
  const port = Number(process.env.PORT ?? 8080);
  const handler = receiver(secret, (m) => console.log(`${m.tijdstip} ${m.gebeurtenis} ${m.id} ${JSON.stringify(m.gegevens)}`));
  const tls = process.env.TLS_CERT && process.env.TLS_KEY ? { cert: process.env.TLS_CERT, key: process.env.TLS_KEY } : selfSigned();
  if (!process.env.TLS_CERT) {
    console.log(`no TLS_CERT and TLS_KEY: serving a self-signed certificate for localhost, ${tls.cert} ` +
      "(a worker trusts it with NODE_EXTRA_CA_CERTS)");
  }
  https.createServer({ cert: fs.readFileSync(tls.cert), key: fs.readFileSync(tls.key) }, handler)
    .listen(port, "127.0.0.1", () => console.log(`listening on https://localhost:${port}`));
}
