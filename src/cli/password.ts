// A new password from standard input, never from an argument (which every user of the machine
// can read in the process list): typed at a prompt that does not echo it, twice, or piped in.
import { UsageError } from "./options.ts";

const MIN = 8;
/** The sign-in form reads at most this much of a password. */
const MAX = 1000;

/** One line typed on the terminal, not shown. */
function promptHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    process.stderr.write(question);
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding("utf8");
    let typed = "";
    const done = (error: Error | null) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off("data", onData);
      process.stderr.write("\n");
      if (error) reject(error); else resolve(typed);
    };
    const onData = (chunk: string) => {
      for (const c of chunk) {
        if (c === "\r" || c === "\n") return done(null);
        if (c === "\u0003" || c === "\u0004") return done(new UsageError("no password given"));
        if (c === "\u007f" || c === "\b") typed = typed.slice(0, -1);
        else if (c >= " ") typed += c;
      }
    };
    stdin.on("data", onData);
  });
}

/** Everything piped in: its first line is the password. */
async function readPiped(): Promise<string> {
  let text = "";
  process.stdin.setEncoding("utf8");
  for await (const chunk of process.stdin) {
    text += chunk;
    if (text.length > 64 * 1024) break;
  }
  return text.split(/\r?\n/)[0] ?? "";
}

export async function readNewPassword(email: string): Promise<string> {
  let password: string;
  if (process.stdin.isTTY) {
    password = await promptHidden(`New password for ${email}: `);
    if (password.length >= MIN && password.length <= MAX && (await promptHidden("Again: ")) !== password) {
      throw new UsageError("the two passwords differ; nothing was changed");
    }
  } else {
    password = await readPiped();
  }
  if (password === "") {
    throw new UsageError("no password on standard input: type it at the prompt, or pipe it in " +
      "(printf '%s\\n' \"$PASSWORD\" | koers user password --email E)");
  }
  if (password.length < MIN) throw new UsageError(`the password is too short: at least ${MIN} characters`);
  if (password.length > MAX) throw new UsageError(`the password is too long: at most ${MAX} characters`);
  return password;
}
