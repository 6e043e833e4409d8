// Shared by the webhook tests: a certificate made with the machine's openssl, a real HTTPS
// receiver on loopback that records what arrives and answers as the test says, worker
// processes (`koers worker`) trusting that certificate through NODE_EXTRA_CA_CERTS, and the CLI.
import assert from "node:assert/strict";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import https from "node:https";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import os from "node:os";
import path from "node:path";
import { runKoers } from "./processes.ts";

export const bin = path.resolve(import.meta.dirname, "../bin/koers.mjs");

export interface Certificate { key: string; cert: string; certPath: string; dir: string; remove(): void }

/** A self-signed certificate for the name localhost, valid for a day. */
export function makeCertificate(): Certificate {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "koers-webhook-test-"));
  execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
    "-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem"), "-days", "1",
    "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost"], { stdio: "ignore" });
  return {
    key: fs.readFileSync(path.join(dir, "key.pem"), "utf8"),
    cert: fs.readFileSync(path.join(dir, "cert.pem"), "utf8"),
    certPath: path.join(dir, "cert.pem"),
    dir,
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

export interface Received {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json: any;
  receivedAt: number;
}

/** What the receiver does with a request; the default answers 200. */
export type Answer = (r: Received, res: ServerResponse) => void;

export interface Receiver {
  port: number;
  /** https://localhost:<port><path> */
  url(path?: string): string;
  received: Received[];
  /** TCP connections accepted so far (a refused address must not even connect). */
  connections(): number;
  answer: Answer;
  /** Waits until `n` requests have arrived (in all), returns them. */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export const ok: Answer = (_r, res) => { res.writeHead(200, { "content-type": "text/plain" }); res.end("ok"); };
export const status = (code: number): Answer => (_r, res) => { res.writeHead(code); res.end(); };

export async function startReceiver(certificate: Certificate): Promise<Receiver> {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  let waiters: (() => void)[] = [];
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      let json: unknown = null;
      try { json = JSON.parse(body); } catch { /* recorded as text */ }
      const r = { method: req.method!, path: req.url!, headers: req.headers, body, json, receivedAt: Date.now() };
      received.push(r);
      for (const w of waiters) w();
      receiver.answer(r, res);
    });
  };
  const servers: https.Server[] = [];
  const listen = (host: string, port: number) => new Promise<https.Server>((resolve, reject) => {
    const s = https.createServer({ key: certificate.key, cert: certificate.cert }, handler);
    s.on("connection", (socket: Socket) => { connections++; sockets.add(socket); socket.on("close", () => sockets.delete(socket)); });
    s.once("error", reject);
    s.listen(port, host, () => resolve(s));
  });
  const first = await listen("127.0.0.1", 0);
  servers.push(first);
  const port = (first.address() as AddressInfo).port;
  // Where localhost also (or only) means ::1.
  await listen("::1", port).then((s) => servers.push(s), () => {});
  const receiver: Receiver = {
    port,
    url: (p = "/hook") => `https://localhost:${port}${p}`,
    received,
    connections: () => connections,
    answer: ok,
    waitFor: (n, timeoutMs = 15_000) => new Promise((resolve, reject) => {
      const check = () => {
        if (received.length >= n) {
          waiters = waiters.filter((w) => w !== check);
          clearTimeout(timer);
          resolve(received.slice(0, n));
        }
      };
      const timer = setTimeout(() => {
        waiters = waiters.filter((w) => w !== check);
        reject(new Error(`expected ${n} requests at the receiver within ${timeoutMs} ms, got ${received.length}`));
      }, timeoutMs);
      waiters.push(check);
      check();
    }),
    close: async () => {
      for (const s of sockets) s.destroy();
      await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    },
  };
  return receiver;
}

export interface WorkerProcess {
  proc: ChildProcess;
  output(): string;
  /** Asks the worker to stop (SIGTERM) and waits until it has. */
  stop(): Promise<void>;
  /** kill -9. */
  kill9(): Promise<void>;
}

/** `koers worker` as a process of its own, trusting the test certificate the usual Node way. */
export async function startWorkerProcess(dbUrl: string, certificate: Certificate, env: NodeJS.ProcessEnv = {},
  nodeArgs: string[] = []): Promise<WorkerProcess> {
  const proc = spawn(process.execPath, [...nodeArgs, bin, "worker"], {
    env: { ...process.env, DATABASE_URL: dbUrl, NODE_EXTRA_CA_CERTS: certificate.certPath, KOERS_WEBHOOK_PRIVATE: "aan", ...env },
    stdio: ["ignore", "pipe", "pipe", ...(nodeArgs.length ? ["ipc" as const] : [])],
  });
  let output = "";
  proc.stdout!.on("data", (d) => (output += d));
  proc.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<void>((resolve) => proc.on("exit", () => resolve()));
  await waitUntil(() => /koers worker: running/.test(output) || proc.exitCode !== null, 30_000, "the worker to start");
  assert.equal(proc.exitCode, null, `the worker did not start:\n${output}`);
  return {
    proc,
    output: () => output,
    stop: async () => { if (proc.exitCode === null) proc.kill("SIGTERM"); await exited; },
    kill9: async () => { proc.kill("SIGKILL"); await exited; },
  };
}

export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export function koersCli(dbUrl: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  return runKoers(args, { DATABASE_URL: dbUrl, ...env });
}

/** A CLI command with --json that must succeed. */
export async function cliJson(dbUrl: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = await koersCli(dbUrl, [...args, "--json"], env);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
