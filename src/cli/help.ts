// Help made from the command table: the overview (koers --help), one command's usage and
// options (koers key create --help), a group's commands (koers key --help) and the README's
// table of commands, which test/cli-help.test.ts keeps equal to the README.
import { values } from "../choices.ts";
import { name, usageLine, type Command } from "./command.ts";
import { OPTIONS, optionsOf } from "./options.ts";

const NOTES = `O is an organisation id or name (letter case aside); U a user id or e-mail address; R one of
${values("rol").join(", ")}. Add --json to any command for machine-readable output.
Database: DATABASE_URL, or the embedded PostgreSQL in KOERS_DATA_DIR (default ./data).
koers COMMAND --help explains one command; koers --version prints the version.`;

/** The first sentence of a text. */
function firstSentence(text: string): string {
  const m = /^(.*?[.!?])(\s|$)/.exec(text);
  return (m ? m[1]! : text).replace(/\.$/, "");
}

function wrap(text: string, width: number, indent = ""): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = indent + word;
    } else line = line ? `${line} ${word}` : indent + word;
  }
  if (line) lines.push(line);
  return lines.join("\n");
}

export function overview(commands: readonly Command[]): string {
  const column = 50;
  const lines = commands.map((c) => {
    const usage = `  ${usageLine(c)}`;
    const about = firstSentence(c.about);
    return usage.length < column ? `${usage.padEnd(column)}${about}` : `${usage}\n${" ".repeat(column)}${about}`;
  });
  const aliases = commands.flatMap((c) => (c.aliases ?? []).map((a) => `${a} (${name(c)})`));
  return ["koers: goals, KPIs and tasks for EOS and Scaling Up companies", "", "Usage:", ...lines, "",
    wrap(`The older Dutch spellings still work: ${aliases.join(", ")}.`, 100), "", NOTES].join("\n");
}

export function commandHelp(c: Command): string {
  const options = optionsOf(c.usage);
  const width = Math.max(...[...options, "json", "help"].map((o) => o.length)) + 4;
  const option = (o: string) => `  --${o.padEnd(width)}${OPTIONS[o as keyof typeof OPTIONS]?.help ?? ""}`;
  return [`Usage: ${usageLine(c)}`, "", wrap(c.about, 100),
    ...(c.aliases?.length ? ["", `Also: ${c.aliases.map((a) => `koers ${a}`).join(", ")} (the older spelling).`] : []),
    "", "Options:", ...options.map(option), option("json"), option("help")].join("\n");
}

/** koers key --help: the group's commands; null when no command starts with these words. */
export function groupHelp(commands: readonly Command[], words: string[]): string | null {
  const prefix = `${words.join(" ")} `;
  const group = commands.filter((c) => name(c).startsWith(prefix));
  if (!words.length || !group.length) return null;
  return [`Commands of koers ${words.join(" ")}:`, ...group.map((c) => `  ${usageLine(c)}`), "",
    `koers ${words.join(" ")} COMMAND --help explains one.`].join("\n");
}

/** The README's table of commands, in Markdown. */
export function readmeTable(commands: readonly Command[]): string {
  const cell = (s: string) => s.replaceAll("|", "\\|");
  return ["| Command | Does |", "|---|---|", ...commands.map((c) =>
    `| \`${cell(usageLine(c))}\` | ${cell(c.about)}${c.aliases?.length
      ? ` Also \`${c.aliases.map((a) => cell(`koers ${a}`)).join("`, `")}\`.` : ""} |`)].join("\n");
}
