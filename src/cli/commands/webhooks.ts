// Webhooks as an owner manages them in the app, and the notifications they raise.
import type { Command } from "../command.ts";
import { limitOption, print, requireOption, uuidOption } from "../options.ts";
import { one, withDatabase } from "../database.ts";

const iso = (t: string) => new Date(t).toISOString();

function switching(on: boolean): Command {
  return {
    words: ["webhook", on ? "enable" : "disable"], aliases: [`webhook ${on ? "aan" : "uit"}`], usage: "--id W",
    about: on ? "Switches a webhook on; its count of failed deliveries starts again." : "Switches a webhook off.",
    run: async ({ values: v, json }) => {
      const id = uuidOption(v, "id");
      const r = await withDatabase(async (sql) => one(sql`select beheer.webhook_zetten(${id}, ${on}) as r`));
      print(json, r, `webhook ${r.naam} (${r.id}): ${r.aan ? "on" : "off"}`);
    },
  };
}

export const webhookCommands: Command[] = [
  {
    words: ["webhook", "create"], aliases: ["webhook maken"], usage: "--org O --naam N --url U --gebeurtenissen E1,E2,... [--user U]",
    about: "Creates a webhook, made by an owner (--user, or the organisation's only owner); prints the signing secret " +
      "once (geheim). The address must be https, a host name and public (docs/webhooks.md).",
    run: async ({ values: v, json }) => {
      const [org, name, address, events] = [requireOption(v, "org"), requireOption(v, "naam"), requireOption(v, "url"),
        requireOption(v, "gebeurtenissen")];
      const [{ addressPolicy, checkWebhookUrl, resolveChecked }, { createSigningSecret }] = await Promise.all([
        import("../../webhooks/address.ts"), import("../../webhooks/signature.ts")]);
      const kinds = events.split(",").map((e) => e.trim()).filter(Boolean);
      // The address is checked here (every IP notation, resolved addresses) and again by the
      // database; refusals exit 1 like every other refusal.
      const url = checkWebhookUrl(address);
      await resolveChecked(url.hostname, addressPolicy());
      const secret = createSigningSecret();
      const r = await withDatabase(async (sql) => one(sql`
        select beheer.webhook_maken(beheer.org(${org}), ${v.user ?? null}, ${name}, ${url.href}, ${kinds}::text[], ${secret}) as r`));
      print(json, { ...r, geheim: secret },
        `webhook created: ${r.naam} (id ${r.id}), events ${r.gebeurtenissen.join(", ")}\n` +
        `Signing secret (shown once, store it now):\n${secret}`);
    },
  },
  {
    words: ["webhook", "list"], aliases: ["webhook lijst"], usage: "--org O",
    about: "Lists an organisation's webhooks: id, on or off, name, address, events, failed deliveries in a row. Never the secret.",
    run: async ({ values: v, json }) => {
      const org = requireOption(v, "org");
      const rows = await withDatabase(async (sql) => (await sql`select r from beheer.webhooks(beheer.org(${org})) r`).map((x) => x.r));
      print(json, rows, rows.map((w) => `${w.id}  ${w.aan ? "on " : "off"}  ${w.naam}  ${w.url}  ` +
        `${w.gebeurtenissen.join(",")}  failed in a row: ${w.opeenvolgende_fouten}`).join("\n") || "(no webhooks)");
    },
  },
  {
    words: ["webhook", "test"], usage: "--id W",
    about: "Sends a webhook.test message to the webhook.",
    run: async ({ values: v, json }) => {
      const id = uuidOption(v, "id");
      const r = await withDatabase(async (sql) => one(sql`select beheer.webhook_testen(${id}) as r`));
      print(json, r, `test message ${r.bericht_id} queued; see: koers webhook deliveries --id ${id}`);
    },
  },
  {
    words: ["webhook", "deliveries"], aliases: ["webhook afleveringen"], usage: "--id W [--limit N]",
    about: "Shows a webhook's delivery log, newest first: time, message id, event, attempt, status, duration, error, " +
      "and after a failed attempt when the next one is due.",
    run: async ({ values: v, json }) => {
      const [id, limit] = [uuidOption(v, "id"), limitOption(v)];
      const rows = await withDatabase(async (sql) =>
        (await sql`select r from beheer.webhook_afleveringslog(${id}, ${limit}) r`).map((x) => x.r));
      print(json, rows, rows.map((a) =>
        `${iso(a.tijdstip)}  ${a.bericht_id}  ${a.gebeurtenis.padEnd(21)} #${a.poging}  ` +
        `${String(a.status_code ?? (a.onderweg ? "..." : "-")).padEnd(3)}  ${a.duur_ms ?? "-"} ms  ${a.fout ?? ""}` +
        (a.volgende_poging_op ? `${a.fout ? "; " : ""}next attempt ${iso(a.volgende_poging_op)}` : "")).join("\n") ||
        "(no deliveries)");
    },
  },
  {
    words: ["webhook", "resend"], aliases: ["webhook opnieuw"], usage: "--id W --bericht M",
    about: "Sends a message again: the same message id, a new delivery.",
    run: async ({ values: v, json }) => {
      const [id, message] = [uuidOption(v, "id"), uuidOption(v, "bericht")];
      const r = await withDatabase(async (sql) => one(sql`select beheer.webhook_opnieuw(${id}, ${message}) as r`));
      print(json, r, `message ${r.bericht_id} queued again`);
    },
  },
  switching(true),
  switching(false),
  {
    words: ["meldingen"], usage: "--org O [--user U] [--limit N]",
    about: "Shows notifications (default: the owners'), such as a webhook switched off after fifteen failed deliveries.",
    run: async ({ values: v, json }) => {
      const [org, limit] = [requireOption(v, "org"), limitOption(v)];
      const rows = await withDatabase(async (sql) =>
        (await sql`select r from beheer.meldingen(beheer.org(${org}), ${v.user ?? null}, ${limit}) r`).map((x) => x.r));
      print(json, rows, rows.map((m) => `${iso(m.tijdstip)}  ${m.naam}: ${m.tekst}`).join("\n") || "(no notifications)");
    },
  },
];
