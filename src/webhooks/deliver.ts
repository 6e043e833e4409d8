// One HTTP POST of a message: the address resolved and checked anew (address.ts), the
// connection made to exactly the addresses that were checked (the name is still the TLS server
// name and the Host header, so the certificate is checked against it), no redirect followed,
// and a deadline for the whole exchange, from the DNS look-up to the last byte of the answer:
// a receiver that answers slowly or never stops answering is cut off.
import https from "node:https";
import type { LookupFunction } from "node:net";
import { AddressRefused, resolveChecked, type AddressPolicy, type ResolvedAddress } from "./address.ts";

/** Success is a 2xx within ten seconds (interface, limits). */
export const DEADLINE_MS = 10_000;

export interface DeliveryHeaders { event: string; delivery: string; signature: string }

export interface DeliveryResult {
  /** The HTTP status, when an answer came. */
  status: number | null;
  /** Why the delivery failed (Dutch, shown in the delivery log), or null on success. */
  error: string | null;
  durationMs: number;
}

// Keep-alive connections, one agent per name and set of checked addresses: a pooled
// connection always goes to an address that was checked for this name.
const agents = new Map<string, https.Agent>();
const MAX_AGENTS = 256;

function agentFor(host: string, port: number, addresses: ResolvedAddress[]): https.Agent {
  const key = `${host}:${port}|${addresses.map((a) => a.address).join(",")}`;
  let agent = agents.get(key);
  if (agent) {
    agents.delete(key);
    agents.set(key, agent);
    return agent;
  }
  const lookup: LookupFunction = (_name, options, callback) => {
    const usable = addresses.filter((a) => !options.family || a.family === options.family);
    if (options.all) {
      (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, usable);
    } else if (usable[0]) {
      callback(null, usable[0].address, usable[0].family);
    } else {
      callback(Object.assign(new Error(`no checked address of family ${options.family}`), { code: "ENOTFOUND" }), "", 0);
    }
  };
  // Idle connections close before a typical server's keep-alive timeout (Node's is 5 s).
  agent = new https.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 64, timeout: 4000, lookup });
  agents.set(key, agent);
  if (agents.size > MAX_AGENTS) {
    const [oldest, old] = agents.entries().next().value as [string, https.Agent];
    agents.delete(oldest);
    old.destroy();
  }
  return agent;
}

/** Closes every kept-alive connection (when the worker stops). */
export function closeConnections(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

function describe(e: unknown, timedOut: boolean): string {
  if (e instanceof AddressRefused) return e.message;
  if (timedOut) return `geen volledig antwoord binnen ${DEADLINE_MS / 1000} s`;
  const code = (e as NodeJS.ErrnoException).code ?? "";
  switch (code) {
    case "ECONNREFUSED": return "verbinding geweigerd";
    case "ECONNRESET": case "EPIPE": return "verbinding verbroken";
    case "EHOSTUNREACH": case "ENETUNREACH": return "adres onbereikbaar";
    case "ETIMEDOUT": return "verbinding niet tot stand gekomen";
    case "HPE_INVALID_CONSTANT": case "HPE_INVALID_STATUS": case "HPE_INVALID_HEADER_TOKEN": return "ongeldig HTTP-antwoord";
  }
  if (/CERT|SELF_SIGNED|UNABLE_TO|SSL|TLS|ALTNAME/.test(code)) return `certificaat niet vertrouwd (${code})`;
  return `verbindingsfout (${code || (e as Error).name})`;
}

type Outcome = { status: number; error?: undefined } | { status: number | null; error: unknown; retryable: boolean };

function post(url: URL, body: string, headers: Record<string, string>, agent: https.Agent, signal: AbortSignal): Promise<Outcome> {
  return new Promise((resolve) => {
    let answered: number | null = null;
    const req = https.request({
      host: url.hostname, port: url.port || 443, path: `${url.pathname}${url.search}`, method: "POST",
      agent, headers, signal,
    }, (res) => {
      const status = res.statusCode ?? 0;
      answered = status;
      // The answer is read to its end (within the deadline) and thrown away.
      res.on("data", () => {});
      res.on("end", () => resolve({ status }));
      res.on("error", (error) => resolve({ status, error, retryable: false }));
      res.on("close", () => { if (!res.complete) resolve({ status, error: new Error("answer cut short"), retryable: false }); });
    });
    req.on("error", (error) => {
      const code = (error as NodeJS.ErrnoException).code;
      // A kept-alive connection the receiver closed just as it was reused: nothing was sent
      // to the receiver's application, so the same delivery goes once more on a new one.
      resolve({ status: answered, error, retryable: answered === null && req.reusedSocket && (code === "ECONNRESET" || code === "EPIPE") });
    });
    req.end(body);
  });
}

export async function postWebhook(url: URL, body: string, h: DeliveryHeaders, policy: AddressPolicy): Promise<DeliveryResult> {
  const started = performance.now();
  const signal = AbortSignal.timeout(DEADLINE_MS);
  const done = (status: number | null, error: string | null): DeliveryResult =>
    ({ status, error, durationMs: Math.round((performance.now() - started) * 10) / 10 });
  try {
    const aborted = new Promise<never>((_, reject) =>
      signal.addEventListener("abort", () => reject(signal.reason), { once: true }));
    aborted.catch(() => {});
    const addresses = await Promise.race([resolveChecked(url.hostname, policy), aborted]);
    const agent = agentFor(url.hostname, Number(url.port || 443), addresses);
    const headers = {
      "Content-Type": "application/json",
      "Content-Length": String(Buffer.byteLength(body)),
      "User-Agent": "Koers-Webhooks/1",
      "X-Service-Event": h.event,
      "X-Service-Delivery": h.delivery,
      "X-Service-Signature": h.signature,
    };
    let outcome = await post(url, body, headers, agent, signal);
    if (outcome.error !== undefined && outcome.retryable && !signal.aborted) outcome = await post(url, body, headers, agent, signal);
    if (outcome.error !== undefined) return done(outcome.status, describe(outcome.error, signal.aborted));
    const status = outcome.status ?? 0;
    if (status >= 200 && status <= 299) return done(status, null);
    if (status >= 300 && status <= 399) return done(status, `doorverwijzing (HTTP ${status}) wordt niet gevolgd`);
    return done(status, `HTTP ${status}`);
  } catch (e) {
    return done(null, describe(e, signal.aborted));
  }
}
