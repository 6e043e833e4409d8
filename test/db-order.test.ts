// The file map of db/ is true: the files are applied in name order (src/db/migrate.ts), and each
// uses only what an earlier file (or itself) defines. This reads db/*.sql: every function a file
// creates, and every call of a function of ours (schema.name(...), or a trigger's execute
// function) in another file; a call of a function first defined in a later file fails. And
// db/CONVENTIONS.md, the map, names every file.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";

const dbDir = path.resolve(import.meta.dirname, "../db");
const SCHEMAS = "api|app_hidden|beheer|app|app_private";

/** The SQL of a file without its comments (line comments; our files use no block comments). */
function code(text: string): string {
  return text.split("\n").map((line) => {
    // Cut at "--" outside a string literal.
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
      if (line[i] === "'") quoted = !quoted;
      else if (!quoted && line[i] === "-" && line[i + 1] === "-") return line.slice(0, i);
    }
    return line;
  }).join("\n");
}

export interface Finding { file: string; calls: string; definedIn: string }

/** Every call in `files` (name and text, in apply order) of a function a later file defines first. */
export function laterCalls(files: { name: string; text: string }[]): Finding[] {
  const definedIn = new Map<string, number>();
  const texts = files.map((f) => code(f.text));
  texts.forEach((t, i) => {
    for (const m of t.matchAll(new RegExp(`create\\s+(?:or\\s+replace\\s+)?function\\s+(${SCHEMAS})\\.(\\w+)`, "gi"))) {
      const name = `${m[1]}.${m[2]}`.toLowerCase();
      if (!definedIn.has(name)) definedIn.set(name, i);
    }
  });
  const findings: Finding[] = [];
  texts.forEach((t, i) => {
    const seen = new Set<string>();
    for (const m of t.matchAll(new RegExp(`\\b(${SCHEMAS})\\.(\\w+)\\s*\\(`, "gi"))) {
      const name = `${m[1]}.${m[2]}`.toLowerCase();
      const j = definedIn.get(name);
      if (j !== undefined && j > i && !seen.has(name)) {
        seen.add(name);
        findings.push({ file: files[i]!.name, calls: name, definedIn: files[j]!.name });
      }
    }
  });
  return findings;
}

describe("db/ file order", () => {
  it("no file calls a function that a later file defines", () => {
    const files = fs.readdirSync(dbDir).filter((f) => f.endsWith(".sql")).sort()
      .map((name) => ({ name, text: fs.readFileSync(path.join(dbDir, name), "utf8") }));
    assert.ok(files.length > 20, "db/*.sql is found");
    const findings = laterCalls(files);
    assert.deepEqual(findings.map((f) => `${f.file} calls ${f.calls}, defined in ${f.definedIn}`), []);
  });

  it("db/CONVENTIONS.md names every file of db/ in its file map", () => {
    const conventions = fs.readFileSync(path.join(dbDir, "CONVENTIONS.md"), "utf8");
    const missing = fs.readdirSync(dbDir).filter((f) => f.endsWith(".sql")).filter((f) => !conventions.includes(`\`${f}\``));
    assert.deepEqual(missing, [], "files of db/ that db/CONVENTIONS.md does not name");
  });

  it("reports a call forward, and not one backward or in a comment", () => {
    const findings = laterCalls([
      { name: "100_a.sql", text: "create function app_hidden.a() returns int language sql as $$ select app_hidden.b() $$;\n" +
        "-- app_hidden.c() is only named here\ncreate trigger t after insert on app.x for each row execute function beheer.c();" },
      { name: "200_b.sql", text: "create function app_hidden.b() returns int language sql as $$ select 1 $$;\n" +
        "create function beheer.c() returns trigger language plpgsql as $$ begin perform app_hidden.a(); return new; end $$;" },
    ]);
    assert.deepEqual(findings, [
      { file: "100_a.sql", calls: "app_hidden.b", definedIn: "200_b.sql" },
      { file: "100_a.sql", calls: "beheer.c", definedIn: "200_b.sql" },
    ]);
  });
});
