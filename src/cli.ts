// The `koers` command line: running the service and the worker, and what the interface says
// happens "in the app" (organisations, people, keys, door switches, section releases, the log,
// the work itself, webhooks), loading an organisation from a file and the demo organisation.
// Every command is an entry of the table in src/cli/commands.ts, which also makes the help.
// Every command takes --json for scripts; bad arguments exit 2, refusals 1.
import fs from "node:fs";
import path from "node:path";
import { commands } from "./cli/commands.ts";
import { name, type Command } from "./cli/command.ts";
import { commandHelp, groupHelp, overview } from "./cli/help.ts";
import { optionsOf, parseCommandLine, print, UsageError } from "./cli/options.ts";

function version(): string {
  const pkg = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../package.json"), "utf8")) as { version: string };
  return pkg.version;
}

/** The command named by the first words (its name or an older spelling), and the words after it. */
function find(words: string[]): { command: Command; rest: string[] } | null {
  for (const n of [2, 1]) {
    const spelled = words.slice(0, n).join(" ");
    if (words.length < n) continue;
    const command = commands.find((c) => name(c) === spelled || c.aliases?.includes(spelled));
    if (command) return { command, rest: words.slice(n) };
  }
  return null;
}

async function runCommand(args: string[]): Promise<void> {
  const { values: v, positionals, given } = parseCommandLine(args);
  const json = v.json ?? false;
  if (v.version) {
    print(json, { versie: version() }, `koers ${version()}`);
    return;
  }
  // koers --help, koers key create --help, koers help key create, koers key --help
  if (v.help || positionals.length === 0 || positionals[0] === "help") {
    const words = positionals[0] === "help" ? positionals.slice(1) : positionals;
    if (!words.length) return void console.log(overview(commands));
    const found = find(words);
    const help = found ? commandHelp(found.command) : groupHelp(commands, words.slice(0, 1));
    if (!help) throw new UsageError(`unknown command "${words.slice(0, 2).join(" ")}"`);
    console.log(help);
    return;
  }
  const found = find(positionals);
  if (!found) throw new UsageError(`unknown command "${positionals.slice(0, 2).join(" ")}"`);
  const { command, rest } = found;
  const allowed = new Set(["json", "help", ...optionsOf(command.usage)]);
  const foreign = given.find((o) => !allowed.has(o));
  if (foreign) throw new UsageError(`koers ${name(command)} takes no option --${foreign} (koers ${name(command)} --help lists its options)`);
  if (rest.length && !command.positionals) throw new UsageError(`${name(command)} takes no arguments`);
  await command.run({ values: v, positionals: rest, json });
}

try {
  await runCommand(process.argv.slice(2));
} catch (e) {
  const err = e as Error & { code?: string };
  if (e instanceof UsageError || err.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" || err.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" ||
      err.code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") {
    console.error(`koers: ${err.message}\nRun koers --help for usage.`);
    process.exit(2);
  }
  // Refusals from SQL carry a Dutch message meant for people.
  console.error(`koers: ${err.message}`);
  process.exit(1);
}
