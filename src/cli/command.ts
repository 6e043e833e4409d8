// One entry of the CLI's command table: the words that name it, its older spellings, its usage
// line, what it does, and its handler. The table (src/cli/commands.ts) is the one place a
// command is written: the parser, the help, each command's --help and the README's table of
// commands are made from it.
import type { Values } from "./options.ts";

export interface Run {
  values: Values;
  /** What follows the command's words. */
  positionals: string[];
  json: boolean;
}

export interface Command {
  /** The words that name it, verbs in English: ["team", "create"]. */
  words: string[];
  /** Older spellings that still work: ["team maken"]. */
  aliases?: string[];
  /** What follows the words: "--org O --naam N [--leider U]". Its options are the command's. */
  usage: string;
  /** What it does, in a sentence or a few: the help and the README say it. */
  about: string;
  /** Takes arguments after its words (a file, sections); without this, any is refused. */
  positionals?: boolean;
  run(r: Run): Promise<void>;
}

export function name(c: Command): string {
  return c.words.join(" ");
}

export function usageLine(c: Command): string {
  return `koers ${[name(c), c.usage].filter(Boolean).join(" ")}`;
}
