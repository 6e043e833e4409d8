// The processes tests start: the `koers` CLI (as npx koers runs it) and the service (as
// npm start runs it).
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
export const koersBin = path.join(root, "bin/koers.mjs");

/** The arguments `npm start` gives node (its V8 flags, tsx, src/main.ts), from package.json. */
export const serviceNodeArgs: string[] = (() => {
  const start: string = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).scripts.start;
  // `exec` makes node the process npm started, so npm's SIGTERM reaches it.
  const [node, ...args] = start.replace(/^exec\s+/, "").split(/\s+/);
  if (node !== "node" || !args.includes("src/main.ts")) throw new Error(`unexpected start script: ${start}`);
  return args;
})();

export interface Finished { code: number; stdout: string; stderr: string }

/**
 * Runs `koers <args>` until it exits, with this environment added to the test process's, or
 * (exactEnv) with exactly this environment.
 */
export function runKoers(args: string[], env: NodeJS.ProcessEnv = {}, options: { exactEnv?: boolean } = {}): Promise<Finished> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [koersBin, ...args], { env: options.exactEnv ? env : { ...process.env, ...env } });
    let stdout = "", stderr = "";
    p.stdout.on("data", (d) => (stdout += d));
    p.stderr.on("data", (d) => (stderr += d));
    p.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** Runs `koers <args> --json`, which must exit 0, and returns what it printed, parsed. */
export async function runKoersJson(args: string[], env: NodeJS.ProcessEnv = {}): Promise<any> {
  const r = await runKoers([...args, "--json"], env);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

/** `npm start` (src/main.ts) with exactly this environment, once it says it is serving. */
export function startService(env: NodeJS.ProcessEnv): Promise<{ proc: ChildProcess; output: () => string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, serviceNodeArgs, { cwd: root, env });
    let output = "";
    const timer = setTimeout(() => reject(new Error(`no "serving on" within 120 s:\n${output}`)), 120_000);
    const onData = (d: Buffer) => {
      output += d;
      if (output.includes("serving on")) {
        clearTimeout(timer);
        resolve({ proc, output: () => output });
      }
    };
    proc.stdout!.on("data", onData);
    proc.stderr!.on("data", onData);
    proc.on("exit", (c) => reject(new Error(`exited with ${c}:\n${output}`)));
  });
}
