// The CLI's command table (src/cli/commands.ts) is the one description of its commands: the
// README's table is generated from it, every option a usage line names exists, every older
// spelling still names its command, and no command is named twice.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { commands } from "../src/cli/commands.ts";
import { name } from "../src/cli/command.ts";
import { readmeTable, overview } from "../src/cli/help.ts";
import { OPTIONS, optionsOf } from "../src/cli/options.ts";
import { runKoers } from "./processes.ts";

const readme = fs.readFileSync(path.resolve(import.meta.dirname, "../README.md"), "utf8");

describe("the CLI's command table", () => {
  it("is the README's table of commands, exactly", () => {
    const start = readme.indexOf("| Command | Does |");
    assert.ok(start > 0, "README.md has a table of commands");
    const table = readme.slice(start, readme.indexOf("\n\n", start));
    assert.equal(table, readmeTable(commands), "README.md's CLI table differs from src/cli/commands.ts; replace it with:\n" +
      readmeTable(commands));
  });

  it("names each command once, with verbs in English; older spellings are aliases, named in the help", () => {
    const spellings = commands.flatMap((c) => [name(c), ...(c.aliases ?? [])]);
    assert.equal(new Set(spellings).size, spellings.length, "a spelling names two commands");
    const dutchVerbs = /\b(maken|lijst|klaar|afronden|doel|toevoegen|bijwerken|plaatsen|wijzigen|indienen|schrijven|meten|vastleggen|vaststellen|goedkeuren|afwijzen|afleveringen|opnieuw|aan|uit|intrekken)$/;
    for (const c of commands) assert.doesNotMatch(name(c), dutchVerbs, `${name(c)}: an English verb, the Dutch one as alias`);
    const help = overview(commands).replace(/\s+/g, " ");
    for (const c of commands) for (const a of c.aliases ?? []) assert.ok(help.includes(`${a} (${name(c)})`), `the help names ${a}`);
  });

  it("explains every option a usage line names", () => {
    for (const c of commands) {
      for (const o of optionsOf(c.usage)) assert.ok(o in OPTIONS, `${name(c)}: --${o} is in src/cli/options.ts`);
    }
  });

  it("runs an older spelling as its command, and refuses an option that is not the command's", async () => {
    const offline = { DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" };
    const [old, current, foreign] = await Promise.all([runKoers(["team", "maken", "--help"], offline),
      runKoers(["team", "create", "--help"], offline), runKoers(["org", "list", "--naam", "x"], offline)]);
    assert.deepEqual([old.code, old.stdout], [0, current.stdout]);
    assert.match(current.stdout, /^Also: koers team maken \(the older spelling\)\.$/m);
    assert.equal(foreign.code, 2);
    assert.match(foreign.stderr, /koers org list takes no option --naam/);
  });
});
