// The warehouse logins on /app/integraties (docs/warehouse.md): create one for a member (its
// password and postgresql:// URL shown once), list them (member, created, last seen, connected
// now; never a password), revoke one. Through the CLI's functions (beheer.warehouse_aanmaken,
// _bijhouden, _logins, _intrekken); the password is made here and only its SCRAM verifier
// reaches the database (src/warehouse/).
import type { FastifyInstance, FastifyReply } from "fastify";
import type { Sql } from "../db/connection.ts";
import { loginAddress } from "../warehouse/login.ts";
import { newPassword, scramVerifier } from "../warehouse/scram.ts";
import { escape, form, moment, table } from "./html.ts";
import { act, redirect, rows, sendPage, text, UUID, type Form, type Gate, type Session } from "./session.ts";

/** What the Integrations page lends this section: its rendering, refusal and secret checks. */
export interface IntegratiesPage {
  render(s: Session, extra: { gedaan?: string; geheim?: string }): Promise<string>;
  refused(reply: FastifyReply, s: Session, fout: { bericht: string }, status?: number): Promise<FastifyReply>;
  freshPassword(reply: FastifyReply, s: Session, f: Form, operatie: string): Promise<boolean>;
  useForm(tx: Sql, s: Session, f: Form): Promise<void>;
  /** The status of a refused secret form: 409 when its one-time token was used, else 400. */
  secretStatus(fout: { parameter?: string }): number;
}

/** The logins of the organisation, with who is connected now (as `koers warehouse list`). */
export async function warehouseLogins(sql: Sql, org: string): Promise<any[]> {
  await sql`select beheer.warehouse_bijhouden()`;
  return rows(sql`select r from beheer.warehouse_logins(${org}) r`);
}

/** The section: the create form (member, limit) and the list with a revoke button per login. */
export function warehouseSection(s: Session, logins: any[], leden: any[], eenmalig: string, passwordAgain: string): string {
  const t = (x: unknown) => escape(moment(x, s.tijdzone));
  return `<section aria-labelledby="warehouse"><h2 id="warehouse">Warehouse-logins</h2>
<p>Een warehouse-login leest de views van <code>rapportage</code> rechtstreeks uit PostgreSQL, namens één lid, zoals een API-sleutel.</p>
${form(s, "/app/integraties/warehouse", `<fieldset><legend>Nieuwe warehouse-login</legend>${eenmalig}
<label>Namens lid <select name="user_id" required>${leden.filter((l) => l.actief).map((l) =>
    `<option value="${escape(l.user_id)}">${escape(l.naam)} (${escape(l.email)})</option>`).join("")}</select></label>
<label>Verbindingen tegelijk (1 tot en met 100, leeg is 5) <input type="number" name="limiet" min="1" max="100" inputmode="numeric"></label>
${passwordAgain}<button type="submit">Warehouse-login maken</button></fieldset>`)}
${table("Warehouse-logins van deze organisatie", ["Gebruiker", "Lid", "Gemaakt", "Laatst gezien", "Nu verbonden", ""], logins.map((l) => [
    `<code>${escape(l.gebruiker)}</code>`, escape(l.naam), t(l.aangemaakt_op), t(l.laatst_gezien_op) || "nooit",
    l.ingetrokken_op ? `ingetrokken ${t(l.ingetrokken_op)}` : `${escape(l.verbindingen)} van ${escape(l.verbindingen_max)}`,
    l.ingetrokken_op ? "" : form(s, "/app/integraties/warehouse/intrekken", `<input type="hidden" name="id" value="${escape(l.id)}">
<button type="submit">Warehouse-login ${escape(l.gebruiker)} intrekken</button>`)]), "Er zijn nog geen warehouse-logins.")}
</section>`;
}

/** The new login, shown once: the URL (with the password) and each part apart. */
function shownOnce(address: { host: string; port: number; database: string; url: string }, gebruiker: string, password: string): string {
  return `<section aria-labelledby="geheim-kop"><h2 id="geheim-kop">Je nieuwe warehouse-login</h2>
<p>Bewaar dit nu: Koers toont het wachtwoord nooit meer.</p>
<p class="geheim" id="geheim">${escape(address.url)}</p>
<dl><dt>Server</dt><dd><code>${escape(address.host)}</code>, poort <code>${escape(address.port)}</code></dd>
<dt>Database</dt><dd><code>${escape(address.database)}</code></dd>
<dt>Gebruiker</dt><dd><code>${escape(gebruiker)}</code></dd>
<dt>Wachtwoord</dt><dd><code id="wachtwoord">${escape(password)}</code></dd></dl>
<p>Geef een programma de servernaam waaronder het de database bereikt; lees <code>rapportage.woordenboek</code> voor de views.</p></section>`;
}

export function registerWarehouse(scope: FastifyInstance, sql: Sql, gate: Gate, p: IntegratiesPage): void {
  scope.post("/app/integraties/warehouse", async (req, reply) => {
    const g = await gate.post(req, reply, ["eigenaar"], "warehouse_aanmaken");
    if (!g) return reply;
    const { s, f } = g;
    const wie = text(f, "user_id", 100);
    const limiet = text(f, "limiet", 20).trim();
    const parameters = { user_id: wie, limiet };
    if (!(await p.freshPassword(reply, s, f, "warehouse_aanmaken"))) return reply;
    const password = newPassword();
    const r = await act(sql, s, "warehouse_aanmaken", parameters, async (tx) => {
      await tx`select beheer.namens(${s.org_id}, ${s.user_id}, 'warehouse_aanmaken', ${tx.json(parameters)})`;
      await p.useForm(tx, s, f);
      if (limiet !== "" && !/^\d{1,3}$/.test(limiet)) {
        await tx`select app_hidden.ongeldig('limiet', 'De limiet is een geheel getal van 1 tot en met 100.')`;
      }
      const lid = tx`beheer.lid(${s.org_id}, ${wie}, 'user_id', true)`;
      const [row] = limiet === ""
        ? await tx`select beheer.warehouse_aanmaken(${s.org_id}, ${lid}, ${scramVerifier(password)}) as r`
        : await tx`select beheer.warehouse_aanmaken(${s.org_id}, ${lid}, ${scramVerifier(password)}, ${Number(limiet)}) as r`;
      return row!.r as { gebruiker: string };
    });
    if (r.fout) return p.refused(reply, s, r.fout, p.secretStatus(r.fout));
    const geheim = shownOnce(loginAddress(sql, r.ok.gebruiker, password), r.ok.gebruiker, password);
    return sendPage(reply, 200, await p.render({ ...s, wachtwoord_vers: true }, { gedaan: "De warehouse-login is gemaakt.", geheim }));
  });

  scope.post("/app/integraties/warehouse/intrekken", async (req, reply) => {
    const g = await gate.post(req, reply, ["eigenaar"], "warehouse_intrekken");
    if (!g) return reply;
    const { s, f } = g;
    const id = text(f, "id", 100);
    const r = await act(sql, s, "warehouse_intrekken", { id }, async (tx) => {
      if (!UUID.test(id)) await tx`select app_hidden.ongeldig('id', 'Onbekende warehouse-login.')`;
      await tx`select beheer.app_warehouse_intrekken(${s.org_id}, ${s.user_id}, ${id})`;
    });
    return r.fout ? p.refused(reply, s, r.fout) : redirect(reply, "/app/integraties?gedaan=warehouse_ingetrokken#warehouse");
  });
}
