// The Debian packages the tests need, each with how to tell it is there: the one list, used by
// `npm test` (test/run.ts) and by `.ci/run`. As root on Debian, what is missing is installed
// (apt-get), saying what and why; otherwise the run stops naming the command to run. Add a
// package here when a test needs one.
//
// Run on its own (`node --import tsx test/prerequisites.ts`) it does the same and exits 1 when
// something is still missing.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export interface Prerequisite {
  /** What it is for, said when it is installed or missing. */
  why: string;
  /** The Debian packages still to install for it; empty when it is there. */
  missing(): string[];
}

function commandExists(command: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

/** Versions of the PostgreSQL server binaries on the machine (Debian: /usr/lib/postgresql/<v>). */
export function serverVersions(): string[] {
  const base = "/usr/lib/postgresql";
  if (!fs.existsSync(base)) return [];
  return fs.readdirSync(base).filter((v) => fs.existsSync(path.join(base, v, "bin", "postgres"))).sort((a, b) => Number(a) - Number(b));
}

const whenAbsent = (present: () => boolean, ...packages: string[]) => () => (present() ? [] : packages);

export const prerequisites: Prerequisite[] = [
  { why: "PostgreSQL server binaries: the tests' own throwaway cluster",
    missing: whenAbsent(() => serverVersions().length > 0 || commandExists("pg_config") && fs.existsSync(
      path.join(execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim(), "postgres")), "postgresql") },
  // One pgTAP per server version: the cluster uses the newest, a TEST_DATABASE_URL may use any.
  { why: "pgTAP, the SQL tests' framework, for each PostgreSQL version",
    missing: () => serverVersions().filter((v) => !fs.existsSync(`/usr/share/postgresql/${v}/extension/pgtap.control`))
      .map((v) => `postgresql-${v}-pgtap`) },
  { why: "pg_prove, which runs the SQL tests", missing: whenAbsent(() => commandExists("pg_prove"), "libtap-parser-sourcehandler-pgtap-perl") },
  { why: "curl: the docs page test runs its curl lines", missing: whenAbsent(() => commandExists("curl"), "curl") },
  { why: "openssl: the webhook tests make a certificate", missing: whenAbsent(() => commandExists("openssl"), "openssl") },
  { why: "Python pandas with SQLAlchemy and psycopg2 for Debian's python3: test/warehouse.test.ts reads the warehouse views with them",
    missing: () => spawnSync("/usr/bin/python3", ["-c", "import pandas, sqlalchemy, psycopg2"], { stdio: "ignore" }).status === 0 ? []
      : ["python3-pandas", "python3-sqlalchemy", "python3-psycopg2"] },
  { why: "chromium: test/app-pages.test.ts drives the owner's pages in a headless browser (playwright-core)",
    missing: whenAbsent(() => fs.existsSync("/usr/bin/chromium"), "chromium") },
  { why: "docker-compose: test/docker.test.ts reads docker-compose.yml as Docker does",
    missing: whenAbsent(() => commandExists("docker-compose"), "docker-compose") },
];

function missingPackages(): { packages: string[]; why: string[] } {
  const found = prerequisites.map((p) => ({ why: p.why, packages: p.missing() })).filter((p) => p.packages.length);
  return { packages: [...new Set(found.flatMap((p) => p.packages))], why: found.map((p) => `${p.packages.join(", ")} (${p.why})`) };
}

/**
 * Installs what is missing when it can (root, apt-get), saying what; returns the problem when
 * something is still missing, or null. Two rounds: pgTAP's package depends on the server's version.
 */
export function ensurePrerequisites(log: (line: string) => void): string | null {
  let updated = false;
  for (let round = 0; round < 2; round++) {
    const { packages, why } = missingPackages();
    if (!packages.length) return null;
    if (process.getuid?.() !== 0 || !commandExists("apt-get")) break;
    for (const line of why) log(`installing ${line}`);
    const apt = (args: string[]) => spawnSync("apt-get", args, { stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } }).status === 0;
    if (!updated) updated = apt(["update", "-qq"]);
    if (!apt(["install", "-y", "-qq", "--no-install-recommends", ...packages])) break;
  }
  const { packages, why } = missingPackages();
  if (!packages.length) return null;
  return `missing: ${why.join("; ")}. Install them: apt-get install ${packages.join(" ")}` +
    (process.getuid?.() === 0 ? "" : " (as root, npm test installs them itself)");
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const problem = ensurePrerequisites((line) => console.log(`prerequisites: ${line}`));
  if (problem) {
    console.error(`prerequisites: ${problem}`);
    process.exit(1);
  }
  console.log("prerequisites: all there");
}
