// A small HTTP/1.1 load generator: one keep-alive socket per client, one request at a time,
// responses read by Content-Length. It costs far less CPU than fetch, which matters on a
// machine where the client, the service and PostgreSQL share two cores.
import net from "node:net";

export interface Answer { status: number; headers: string; body: string }

export class Connection {
  private socket: net.Socket;
  private buffer = Buffer.alloc(0);
  private waiting: { resolve: (a: Answer) => void; reject: (e: Error) => void } | null = null;
  private ready: Promise<void>;

  constructor(private host: string, private port: number) {
    this.socket = net.connect({ host, port, noDelay: true });
    this.ready = new Promise((resolve, reject) => { this.socket.once("connect", resolve); this.socket.once("error", reject); });
    this.socket.on("data", (d) => { this.buffer = this.buffer.length ? Buffer.concat([this.buffer, d]) : d; this.parse(); });
    this.socket.on("error", (e) => this.waiting?.reject(e));
    this.socket.on("close", () => this.waiting?.reject(new Error("connection closed")));
  }

  private parse() {
    if (!this.waiting) return;
    const end = this.buffer.indexOf("\r\n\r\n");
    if (end < 0) return;
    const head = this.buffer.subarray(0, end).toString("latin1");
    const m = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    const length = m ? Number(m[1]) : 0;
    if (this.buffer.length < end + 4 + length) return;
    const body = this.buffer.subarray(end + 4, end + 4 + length).toString("utf8");
    this.buffer = this.buffer.subarray(end + 4 + length);
    const w = this.waiting;
    this.waiting = null;
    w.resolve({ status: Number(head.slice(9, 12)), headers: head, body });
  }

  async request(method: "GET" | "POST", path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
    await this.ready;
    let head = `${method} ${path} HTTP/1.1\r\nhost: ${this.host}:${this.port}\r\n`;
    for (const [k, v] of Object.entries(headers)) head += `${k}: ${v}\r\n`;
    if (body !== undefined) head += `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n`;
    const answer = new Promise<Answer>((resolve, reject) => { this.waiting = { resolve, reject }; });
    this.socket.write(head + "\r\n" + (body ?? ""));
    return answer;
  }

  close() { this.socket.destroy(); }
}

export interface RunResult { count: number; errors: number; perSecond: number; latencies: number[]; firstError?: string }

/**
 * `clients` connections, each sending `next(client, i)` one after the other for `ms`
 * milliseconds. Latencies in milliseconds, sorted.
 */
export async function run(host: string, port: number, clients: number, ms: number,
  next: (client: number, i: number) => { method: "GET" | "POST"; path: string; headers?: Record<string, string>; body?: string },
  onAnswer?: (a: Answer, at: number) => void): Promise<RunResult> {
  const connections = Array.from({ length: clients }, () => new Connection(host, port));
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const start = performance.now();
  const end = start + ms;
  await Promise.all(connections.map(async (c, n) => {
    for (let i = 0; performance.now() < end; i++) {
      const r = next(n, i);
      const t = performance.now();
      try {
        const a = await c.request(r.method, r.path, r.headers, r.body);
        const now = performance.now();
        latencies.push(now - t);
        if (a.status !== 200) { errors++; firstError ??= `${a.status} ${a.body.slice(0, 200)}`; }
        onAnswer?.(a, now - start);
      } catch (e) {
        errors++;
        firstError ??= (e as Error).message;
      }
    }
  }));
  const elapsed = performance.now() - start;
  for (const c of connections) c.close();
  latencies.sort((a, b) => a - b);
  return { count: latencies.length, errors, perSecond: latencies.length / (elapsed / 1000), latencies, firstError };
}

export const percentile = (sorted: number[], q: number) => sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : NaN;
