// An extraction with limits: its own thread, a time limit and a memory limit. Whatever happens
// inside, the answer is a result or the reason the file could not be read.
import { Worker } from "node:worker_threads";
import type { Extraction } from "./extract.ts";

export type Outcome = Extraction | { status: "onleesbaar"; reason: string };

export interface Limits { timeoutMs: number; memoryMb: number }

export const defaultLimits: Limits = { timeoutMs: 60_000, memoryMb: 512 };

// The thread runs TypeScript too: a small module registers tsx's loader, then imports it.
const bootstrap = new URL(`data:text/javascript,${encodeURIComponent(
  `import { register } from ${JSON.stringify(import.meta.resolve("tsx/esm/api"))};\n` +
  `register();\n` +
  `await import(${JSON.stringify(new URL("./extract-thread.ts", import.meta.url).href)});\n`)}`);

export function extractInThread(bytes: Uint8Array, name: string, mimetype: string | null,
  limits: Limits = defaultLimits): Promise<Outcome> {
  return new Promise((resolve) => {
    const worker = new Worker(bootstrap, {
      workerData: { bytes, name, mimetype },
      resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb },
      stdout: true, stderr: true,
    });
    // Parsers' warnings are not ours to print.
    worker.stdout.resume();
    worker.stderr.resume();
    let settled = false;
    const settle = (o: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(o);
    };
    const timer = setTimeout(() => settle({ status: "onleesbaar", reason: `lezen duurde langer dan ${limits.timeoutMs / 1000} s` }),
      limits.timeoutMs);
    worker.on("message", (m: { result?: Extraction; unreadable?: string }) =>
      settle(m.result ?? { status: "onleesbaar", reason: m.unreadable ?? "onbekende fout" }));
    worker.on("error", (e) => settle({ status: "onleesbaar", reason: (e as NodeJS.ErrnoException).code === "ERR_WORKER_OUT_OF_MEMORY"
      ? `lezen vroeg meer dan ${limits.memoryMb} MB geheugen` : e.message }));
    worker.on("exit", () => settle({ status: "onleesbaar", reason: "het lezen stopte onverwacht" }));
  });
}
