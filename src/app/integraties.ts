// /app/integraties, for owners only: the doors' switches, the sections released, API keys,
// webhooks and their deliveries, warehouse logins (src/app/warehouse.ts), the person's AI
// assistants, notifications and the call log.
// A new secret (key, signing secret) is shown once: its form carries a one-time token, and
// after ten minutes without the password the form asks for it again.
import type { FastifyInstance, FastifyReply } from "fastify";
import type { Sql } from "../db/connection.ts";
import { createApiKey } from "../api-key.ts";
import { verifyPassword } from "../oauth/password.ts";
import { randomSecret, sha256 } from "../oauth/tokens.ts";
import { AddressRefused, addressPolicy, checkWebhookUrl, resolveChecked } from "../webhooks/address.ts";
import { createSigningSecret } from "../webhooks/signature.ts";
import { escape, form, moment, notice, page, secret, table } from "./html.ts";
import { registerWarehouse, warehouseLogins, warehouseSection } from "./warehouse.ts";
import { act, logRefusal, many, redirect, rows, sendPage, text, UUID, type AppOptions, type Form, type Gate,
  type Session } from "./session.ts";

const OWNER = ["eigenaar"] as const;
const DOOR_NAMES: Record<string, string> = { rest: "REST API", mcp: "AI-koppeling (MCP)", warehouse: "Warehouse" };
const LOG_PAGE = 50;

/** What a finished action says after its redirect (?gedaan=...): fixed texts, nothing reflected. */
const DONE: Record<string, string> = {
  koppeling: "De koppeling is opgeslagen.", secties: "De onderdelen zijn opgeslagen.", ingetrokken: "De sleutel is ingetrokken.",
  webhook_aan: "De webhook staat aan.", webhook_uit: "De webhook staat uit.", getest: "Het testbericht is verstuurd.",
  opnieuw: "Het bericht wordt opnieuw verstuurd.", assistent: "De assistent is ontkoppeld.",
  warehouse_ingetrokken: "De warehouse-login is ingetrokken.",
};

/** Takes the form's one-time token (a random 256-bit value the page made), or refuses. */
async function useForm(tx: Sql, s: Session, f: Form): Promise<void> {
  const token = text(f, "eenmalig", 100);
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) {
    await tx`select app_hidden.ongeldig('eenmalig', 'Dit formulier mist zijn eenmalige code; open de pagina opnieuw.')`;
  }
  await tx`select beheer.app_formulier_gebruiken(${s.org_id}, ${s.sessie_id}, ${sha256(token)})`;
}

/** The field that asks for the password again, when the sign-in is older than ten minutes. */
function passwordAgain(s: Session): string {
  return s.wachtwoord_vers ? "" : `<label>Je wachtwoord (je bent langer dan 10 minuten geleden aangemeld)
<input type="password" name="wachtwoord" autocomplete="current-password" required></label>`;
}

export async function registerIntegraties(scope: FastifyInstance, sql: Sql, gate: Gate, _options: AppOptions): Promise<void> {
  const render = async (s: Session, query: Record<string, string>, extra: { fout?: string; gedaan?: string; geheim?: string } = {}) => {
    const [koppelingen, secties, sleutels, webhooks, soorten, verbindingen, meldingen, leden, logins] = await Promise.all([
      rows(sql`select r from beheer.app_koppelingen(${s.org_id}) r`),
      rows(sql`select r from beheer.app_secties(${s.org_id}) r`),
      rows(sql`select r from beheer.app_sleutels(${s.org_id}) r`),
      rows(sql`select r from beheer.webhooks(${s.org_id}) r`),
      sql`select app_hidden.webhook_soorten() as r`.then((x) => x[0]!.r as string[]),
      rows(sql`select r from beheer.app_verbindingen(${s.user_id}) r`),
      rows(sql`select r from beheer.meldingen(${s.org_id}, ${s.user_id}, 20) r`),
      rows(sql`select r from beheer.leden(${s.org_id}) r`),
      warehouseLogins(sql, s.org_id),
    ]);
    const filter = Object.fromEntries(["door", "operatie", "status", "user_id", "van", "tot", "verzoek_id"]
      .map((k) => [k, (query[k] ?? "").slice(0, 200)]).filter(([, v]) => v !== ""));
    const pagina = Math.max(1, Math.min(10_000, Number.parseInt(query.pagina ?? "1", 10) || 1));
    let log: any[] = [];
    let logFout: string | undefined;
    try {
      log = await rows(sql`select r from beheer.app_log(${s.org_id}, ${sql.json(filter)}, ${LOG_PAGE + 1}, ${(pagina - 1) * LOG_PAGE}) r`);
    } catch (e) {
      if ((e as { code?: string }).code !== "KOERS") throw e;
      logFout = (e as Error).message;
    }
    const more = log.length > LOG_PAGE;
    log = log.slice(0, LOG_PAGE);
    const eenmalig = () => `<input type="hidden" name="eenmalig" value="${randomSecret()}">`;
    const link = (p: number) => `/app/integraties?${new URLSearchParams({ ...filter, pagina: String(p) })}#aanroeplog`;

    const body = `${notice(extra)}${extra.geheim ?? ""}
<section aria-labelledby="koppelingen"><h2 id="koppelingen">Koppelingen</h2>
<p>Per deur: uit, aan, of aan maar alleen lezen.</p>
${koppelingen.map((k) => form(s, "/app/integraties/koppeling", `<fieldset><legend>${escape(DOOR_NAMES[k.door] ?? k.door)}</legend>
<input type="hidden" name="door" value="${escape(k.door)}">
${[["uit", "Uit", !k.aan], ["aan", "Aan", k.aan && !k.alleen_lezen], ["alleen_lezen", "Aan, alleen lezen", k.aan && k.alleen_lezen]]
    .map(([v, l, c]) => `<label><input type="radio" name="stand" value="${v}"${c ? " checked" : ""}> ${l}</label>`).join("\n")}
<button type="submit">${escape(DOOR_NAMES[k.door] ?? k.door)} opslaan</button></fieldset>`)).join("\n")}
</section>
<section aria-labelledby="onderdelen"><h2 id="onderdelen">Onderdelen</h2>
${form(s, "/app/integraties/secties", `<fieldset><legend>Vrijgegeven voor de koppelingen</legend>
${secties.map((x) => `<label><input type="checkbox" name="sectie" value="${escape(x.sectie)}"${x.vrijgegeven ? " checked" : ""}> ${escape(x.sectie)}</label>`).join("\n")}
<button type="submit">Onderdelen opslaan</button></fieldset>`)}
</section>
<section aria-labelledby="sleutels"><h2 id="sleutels">API-sleutels</h2>
${form(s, "/app/integraties/sleutels", `${eenmalig()}${passwordAgain(s)}<button type="submit">Nieuwe API-sleutel maken</button>`)}
${table("API-sleutels van deze organisatie", ["Sleutel", "Lid", "Gemaakt", "Laatst gebruikt", "Status", ""], sleutels.map((k) => [
    `<code>${escape(k.hint)}</code>`, escape(k.naam), escape(moment(k.aangemaakt_op, s.tijdzone)), escape(moment(k.laatst_gebruikt_op, s.tijdzone) || "nooit"),
    k.ingetrokken_op ? `ingetrokken ${escape(moment(k.ingetrokken_op, s.tijdzone))}` : "geldig",
    k.ingetrokken_op ? "" : form(s, "/app/integraties/sleutels/intrekken", `<input type="hidden" name="key_id" value="${escape(k.key_id)}">
<button type="submit">Sleutel ${escape(k.hint)} intrekken</button>`)]), "Er zijn nog geen API-sleutels.")}
</section>
<section aria-labelledby="webhooks"><h2 id="webhooks">Webhooks</h2>
${form(s, "/app/integraties/webhooks", `<fieldset><legend>Nieuwe webhook</legend>${eenmalig()}
<label>Naam <input type="text" name="naam" required maxlength="200"></label>
<label>Adres (https) <input type="url" name="url" required maxlength="2048"></label>
<fieldset><legend>Gebeurtenissen</legend>
${soorten.map((g) => `<label><input type="checkbox" name="gebeurtenissen" value="${escape(g)}"> ${escape(g)}</label>`).join("\n")}
</fieldset>${passwordAgain(s)}
<button type="submit">Webhook maken</button></fieldset>`)}
${table("Webhooks", ["Naam", "Adres", "Gebeurtenissen", "Staat", "Mislukt op rij", ""], webhooks.map((w) => [
    escape(w.naam), `<code>${escape(w.url)}</code>`, escape(w.gebeurtenissen.join(", ")), w.aan ? "aan" : `uit${w.uitgezet_op ? ` sinds ${escape(moment(w.uitgezet_op, s.tijdzone))}` : ""}`,
    String(w.opeenvolgende_fouten),
    `<a href="/app/integraties/webhooks/${escape(w.id)}">Afleveringen van ${escape(w.naam)}</a>
${form(s, "/app/integraties/webhooks/testen", `<input type="hidden" name="id" value="${escape(w.id)}"><button type="submit">Testbericht naar ${escape(w.naam)}</button>`)}
${form(s, "/app/integraties/webhooks/zetten", `<input type="hidden" name="id" value="${escape(w.id)}"><input type="hidden" name="aan" value="${w.aan ? "nee" : "ja"}">
<button type="submit">${escape(w.naam)} ${w.aan ? "uitzetten" : "aanzetten"}</button>`)}`]), "Er zijn nog geen webhooks.")}
</section>
${warehouseSection(s, logins, leden, eenmalig(), passwordAgain(s))}
<section aria-labelledby="assistenten"><h2 id="assistenten">Jouw AI-assistenten</h2>
${table("Assistenten verbonden met jouw account", ["Assistent", "Verbonden", "Vernieuwd", ""], verbindingen.map((v) => [
    escape(v.assistent), escape(moment(v.aangemaakt_op, s.tijdzone)), escape(moment(v.vernieuwd_op, s.tijdzone)),
    form(s, "/app/integraties/assistenten/intrekken", `<input type="hidden" name="id" value="${escape(v.id)}"><button type="submit">${escape(v.assistent)} ontkoppelen</button>`)]),
    "Er is geen assistent met jouw account verbonden.")}
</section>
<section aria-labelledby="meldingen"><h2 id="meldingen">Meldingen</h2>
${table("Meldingen", ["Wanneer", "Melding"], meldingen.map((m) => [escape(moment(m.tijdstip, s.tijdzone)), escape(m.tekst)]), "Er zijn geen meldingen.")}
</section>
<section aria-labelledby="aanroeplog"><h2 id="aanroeplog">Aanroeplog</h2>
<form method="get" action="/app/integraties#aanroeplog"><fieldset><legend>Filters</legend>
<label>Deur <select name="door"><option value="">alle</option>${["rest", "mcp", "app", ...koppelingen.map((k) => k.door)]
    .filter((d, i, a) => a.indexOf(d) === i).map((d) => `<option value="${escape(d)}"${filter.door === d ? " selected" : ""}>${escape(d)}</option>`).join("")}</select></label>
<label>Operatie <input type="text" name="operatie" value="${escape(filter.operatie)}"></label>
<label>Status <input type="text" name="status" inputmode="numeric" value="${escape(filter.status)}"></label>
<label>Lid <select name="user_id"><option value="">iedereen</option>${leden.map((l) =>
    `<option value="${escape(l.user_id)}"${filter.user_id === l.user_id ? " selected" : ""}>${escape(l.naam)}</option>`).join("")}</select></label>
<label>Van (datum) <input type="date" name="van" value="${escape(filter.van)}"></label>
<label>Tot en met (datum) <input type="date" name="tot" value="${escape(filter.tot)}"></label>
<label>Verzoek-id <input type="text" name="verzoek_id" value="${escape(filter.verzoek_id)}"></label>
<button type="submit">Log filteren</button></fieldset></form>
${notice({ fout: logFout })}
${table(`Aanroepen, pagina ${pagina}`, ["Tijdstip", "Deur", "Operatie", "Lid", "Status", "Fout", "Duur (ms)", "Verzoek-id"], log.map((a) => [
    escape(moment(a.tijdstip, s.tijdzone)), escape(a.door), escape(a.operatie), escape(a.naam ?? ""), escape(a.status), escape(a.fout_code ?? ""),
    escape(a.duur_ms ?? ""), `<code>${escape(a.verzoek_id ?? "")}</code>`]), "Geen aanroepen gevonden.")}
<p>${pagina > 1 ? `<a href="${escape(link(pagina - 1))}">Vorige pagina</a> ` : ""}${more ? `<a href="${escape(link(pagina + 1))}">Volgende pagina</a>` : ""}</p>
</section>`;
    return { html: page("Integraties", body, s), badFilter: logFout !== undefined };
  };

  const refused = async (reply: FastifyReply, s: Session, fout: { bericht: string }, status = 400) =>
    sendPage(reply, status, (await render(s, {}, { fout: fout.bericht })).html);

  scope.get("/app/integraties", async (req, reply) => {
    const s = await gate.get(req, reply, OWNER, "integraties");
    if (!s) return reply;
    const q = req.query as Record<string, string>;
    const r = await render(s, q, { gedaan: DONE[q.gedaan ?? ""] });
    // A filter of the call log that is no date, status or member: 400, the page says which.
    return sendPage(reply, r.badFilter ? 400 : 200, r.html);
  });

  scope.post("/app/integraties/koppeling", async (req, reply) => {
    const g = await gate.post(req, reply, OWNER, "koppeling_zetten");
    if (!g) return reply;
    const { s, f } = g;
    const door = text(f, "door", 50);
    const stand = text(f, "stand", 20);
    const p = { door, stand };
    const r = await act(sql, s, "koppeling_zetten", p, async (tx) => {
      await tx`select beheer.namens(${s.org_id}, ${s.user_id}, 'koppeling_zetten', ${tx.json(p)})`;
      if (!["uit", "aan", "alleen_lezen"].includes(stand)) {
        await tx`select app_hidden.ongeldig('stand', 'Kies uit, aan of alleen lezen.')`;
      }
      await tx`select beheer.koppeling_zetten(${s.org_id}, ${door}, ${stand !== "uit"}, ${stand === "alleen_lezen"})`;
    });
    return r.fout ? refused(reply, s, r.fout) : redirect(reply, "/app/integraties?gedaan=koppeling");
  });

  scope.post("/app/integraties/secties", async (req, reply) => {
    const g = await gate.post(req, reply, OWNER, "secties_zetten");
    if (!g) return reply;
    const { s, f } = g;
    const vrij = many(f.sectie).slice(0, 50);
    const r = await act(sql, s, "secties_zetten", { vrijgegeven: vrij }, async (tx) => {
      await tx`select beheer.namens(${s.org_id}, ${s.user_id}, 'secties_zetten', ${tx.json({ vrijgegeven: vrij })})`;
      const alle = (await tx`select app_hidden.keuzes('sectie') as r`)[0]!.r as string[];
      if (vrij.length) await tx`select beheer.secties_zetten(${s.org_id}, ${vrij}::text[], true)`;
      const dicht = alle.filter((x) => !vrij.includes(x));
      if (dicht.length) await tx`select beheer.secties_zetten(${s.org_id}, ${dicht}::text[], false)`;
    });
    return r.fout ? refused(reply, s, r.fout) : redirect(reply, "/app/integraties?gedaan=secties");
  });

  /** A refused form that shows a secret: 409 when its one-time token was used already, else 400. */
  const secretStatus = (fout: { parameter?: string }) => (fout.parameter === "eenmalig" ? 409 : 400);

  /** The password again when the sign-in is older than ten minutes; false when it was wrong (answer sent). */
  const freshPassword = async (reply: FastifyReply, s: Session, f: Form, operatie: string): Promise<boolean> => {
    if (s.wachtwoord_vers) return true;
    const [row] = await sql`select beheer.app_account(${s.email}) as r`;
    if (await verifyPassword(text(f, "wachtwoord"), (row?.r as { wachtwoord_hash?: string } | null)?.wachtwoord_hash)) {
      await sql`select beheer.app_wachtwoord_gegeven(${s.org_id}, ${s.sessie_id})`;
      return true;
    }
    await logRefusal(sql, s, operatie, {}, "ongeldige_parameters");
    await refused(reply, s, { bericht: "Geef je wachtwoord: je bent langer dan 10 minuten geleden aangemeld, en een nieuw geheim toont Koers pas na je wachtwoord." }, 403);
    return false;
  };

  scope.post("/app/integraties/sleutels", async (req, reply) => {
    const g = await gate.post(req, reply, OWNER, "sleutel_aanmaken");
    if (!g) return reply;
    const { s, f } = g;
    if (!(await freshPassword(reply, s, f, "sleutel_aanmaken"))) return reply;
    const k = createApiKey();
    const r = await act(sql, s, "sleutel_aanmaken", {}, async (tx) => {
      await tx`select beheer.namens(${s.org_id}, ${s.user_id}, 'sleutel_aanmaken', ${tx.json({ hint: k.hint })})`;
      await useForm(tx, s, f);
      await tx`select beheer.sleutel_aanmaken(${s.org_id}, ${s.user_id}, ${k.hash}, ${k.hint})`;
    });
    if (r.fout) return refused(reply, s, r.fout, secretStatus(r.fout));
    return sendPage(reply, 200, (await render({ ...s, wachtwoord_vers: true }, {}, { gedaan: "De API-sleutel is gemaakt.",
      geheim: secret("Je nieuwe API-sleutel", k.key) })).html);
  });

  scope.post("/app/integraties/sleutels/intrekken", async (req, reply) => {
    const g = await gate.post(req, reply, OWNER, "sleutel_intrekken");
    if (!g) return reply;
    const { s, f } = g;
    const id = text(f, "key_id", 100);
    const r = await act(sql, s, "sleutel_intrekken", { key_id: id }, async (tx) => {
      if (!UUID.test(id)) await tx`select app_hidden.ongeldig('key_id', 'Onbekende sleutel.')`;
      await tx`select beheer.app_sleutel_intrekken(${s.org_id}, ${s.user_id}, ${id})`;
    });
    return r.fout ? refused(reply, s, r.fout) : redirect(reply, "/app/integraties?gedaan=ingetrokken");
  });

  scope.post("/app/integraties/webhooks", async (req, reply) => {
    const g = await gate.post(req, reply, OWNER, "webhook_maken");
    if (!g) return reply;
    const { s, f } = g;
    const naam = text(f, "naam", 200);
    const events = many(f.gebeurtenissen).slice(0, 50);
    let url: URL;
    try {
      url = checkWebhookUrl(text(f, "url", 4096));
      await resolveChecked(url.hostname, addressPolicy());
    } catch (e) {
      if (!(e instanceof AddressRefused)) throw e;
      await logRefusal(sql, s, "webhook_maken", { naam }, "ongeldige_parameters");
      return refused(reply, s, { bericht: e.message });
    }
    if (!(await freshPassword(reply, s, f, "webhook_maken"))) return reply;
    const geheim = createSigningSecret();
    const r = await act(sql, s, "webhook_maken", { naam, gebeurtenissen: events }, async (tx) => {
      await useForm(tx, s, f);
      await tx`select beheer.webhook_maken(${s.org_id}, ${s.user_id}, ${naam}, ${url.href}, ${events}::text[], ${geheim})`;
    });
    if (r.fout) return refused(reply, s, r.fout);
    return sendPage(reply, 200, (await render({ ...s, wachtwoord_vers: true }, {}, { gedaan: `Webhook ${naam} is gemaakt.`,
      geheim: secret("Het ondertekengeheim van de webhook", geheim) })).html);
  });

  const webhookAction = (path: string, operatie: string, run: (tx: Sql, s: Session, id: string, f: Form) => Promise<unknown>,
    done: (f: Form) => string) => {
    scope.post(path, async (req, reply) => {
      const g = await gate.post(req, reply, OWNER, operatie);
      if (!g) return reply;
      const { s, f } = g;
      const id = text(f, "id", 100);
      const r = await act(sql, s, operatie, { id }, async (tx) => {
        if (!UUID.test(id)) await tx`select app_hidden.ongeldig('id', 'Onbekende webhook.')`;
        await tx`select beheer.app_webhook(${s.org_id}, ${id})`;
        await run(tx, s, id, f);
      });
      return r.fout ? refused(reply, s, r.fout) : redirect(reply, done(f));
    });
  };
  webhookAction("/app/integraties/webhooks/zetten", "webhook_zetten",
    (tx, s, id, f) => tx`select beheer.webhook_zetten(${id}, ${text(f, "aan") === "ja"}, ${s.user_id})`,
    (f) => `/app/integraties?gedaan=${text(f, "aan") === "ja" ? "webhook_aan" : "webhook_uit"}`);
  webhookAction("/app/integraties/webhooks/testen", "webhook_testen",
    (tx, s, id) => tx`select beheer.webhook_testen(${id}, ${s.user_id})`, () => "/app/integraties?gedaan=getest");
  webhookAction("/app/integraties/webhooks/opnieuw", "webhook_opnieuw", async (tx, s, id, f) => {
    const bericht = text(f, "bericht", 100);
    if (!UUID.test(bericht)) await tx`select app_hidden.ongeldig('bericht', 'Onbekend bericht.')`;
    await tx`select beheer.webhook_opnieuw(${id}, ${bericht}, ${s.user_id})`;
  }, (f) => `/app/integraties/webhooks/${encodeURIComponent(text(f, "id", 100))}?gedaan=opnieuw`);

  scope.get("/app/integraties/webhooks/:id", async (req, reply) => {
    const s = await gate.get(req, reply, OWNER, "webhook_afleveringen");
    if (!s) return reply;
    const id = (req.params as { id: string }).id;
    const [w] = UUID.test(id) ? await rows(sql`select r from beheer.webhooks(${s.org_id}) r where r ->> 'id' = ${id}`) : [];
    if (!w) return sendPage(reply, 404, page("Webhook niet gevonden", `<p>Deze webhook bestaat niet in ${escape(s.org_naam)}.</p>
<p><a href="/app/integraties#webhooks">Terug naar Integraties</a></p>`, s));
    const log = await rows(sql`select r from beheer.webhook_afleveringslog(${id}, 100) r`);
    const q = req.query as Record<string, string>;
    return sendPage(reply, 200, page(`Afleveringen van ${w.naam}`, `${notice({ gedaan: DONE[q.gedaan ?? ""] })}
<p><a href="/app/integraties#webhooks">Terug naar Integraties</a></p>
<p>Adres <code>${escape(w.url)}</code>; ${w.aan ? "aan" : "uit"}; ${escape(w.opeenvolgende_fouten)} mislukt op rij.</p>
${table("Afleveringen, nieuwste eerst", ["Tijdstip", "Gebeurtenis", "Poging", "Status", "Duur (ms)", "Fout", "Volgende poging", "Bericht", ""], log.map((a) => [
      escape(moment(a.tijdstip, s.tijdzone)), escape(a.gebeurtenis), escape(a.poging), escape(a.status_code ?? (a.onderweg ? "onderweg" : "")),
      escape(a.duur_ms ?? ""), escape(a.fout ?? ""), escape(moment(a.volgende_poging_op, s.tijdzone)), escape(a.bericht_status),
      form(s, "/app/integraties/webhooks/opnieuw", `<input type="hidden" name="id" value="${escape(id)}">
<input type="hidden" name="bericht" value="${escape(a.bericht_id)}"><button type="submit">${escape(a.gebeurtenis)} van ${escape(moment(a.tijdstip, s.tijdzone))} opnieuw versturen</button>`)]),
      "Nog geen afleveringen.")}`, s));
  });

  scope.post("/app/integraties/assistenten/intrekken", async (req, reply) => {
    const g = await gate.post(req, reply, OWNER, "assistent_intrekken");
    if (!g) return reply;
    const { s, f } = g;
    const id = text(f, "id", 100);
    const r = await act(sql, s, "assistent_intrekken", { id }, async (tx) => {
      if (!UUID.test(id)) await tx`select app_hidden.ongeldig('id', 'Onbekende assistent.')`;
      await tx`select beheer.app_verbinding_intrekken(${s.org_id}, ${s.user_id}, ${id})`;
    });
    return r.fout ? refused(reply, s, r.fout) : redirect(reply, "/app/integraties?gedaan=assistent");
  });

  registerWarehouse(scope, sql, gate, { render: async (s, extra) => (await render(s, {}, extra)).html, refused, freshPassword,
    useForm, secretStatus });
}
