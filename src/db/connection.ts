// Connections. The administrative connection migrates and serves the CLI and the workers; the
// doors connect as koers_door, which is neither superuser nor owner and has no BYPASSRLS.
import crypto from "node:crypto";
import postgres from "postgres";

export type Sql = postgres.Sql<Record<string, never>>;

/** Startup parameters every connection sends: the test clock, when set. */
export function sessionSettings(now: string | null): Record<string, string> {
  return now ? { "koers.nu": now } : {};
}

/**
 * The door role's password, derived from the administrative URL, so every instance of the
 * service computes the same one without storing it anywhere.
 */
export function doorPassword(adminUrl: string): string {
  const u = new URL(adminUrl);
  return crypto.createHmac("sha256", decodeURIComponent(u.password) || "koers")
    .update(`koers_door:${u.host}`).digest("base64url");
}

export function doorUrl(adminUrl: string): string {
  const u = new URL(adminUrl);
  u.username = "koers_door";
  u.password = doorPassword(adminUrl);
  return u.toString();
}

export function connect(url: string, options: { now: string | null; max?: number; name: string }): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    connection: { application_name: options.name, ...sessionSettings(options.now) },
    onnotice: () => {},
  }) as unknown as Sql;
}
