// /app/strategie (owner, admin, MT): open strategy proposals with the text now and the text
// proposed per field; approve or reject (beheer.strategie_beoordelen). /app/sessienotities
// (coach): the coach's concept notes; establish one (beheer.sessienotitie_vaststellen).
import type { FastifyInstance } from "fastify";
import type { Sql } from "../db/connection.ts";
import { escape, form, moment, notice, page, table } from "./html.ts";
import { act, redirect, rows, sendPage, text, UUID, type Gate, type Session } from "./session.ts";

const STRATEGY = ["eigenaar", "admin", "mt"] as const;
const COACH = ["coach"] as const;

export async function registerStrategie(scope: FastifyInstance, sql: Sql, gate: Gate): Promise<void> {
  const strategyPage = async (s: Session, extra: { fout?: string; gedaan?: string } = {}) => {
    const voorstellen = await rows(sql`select r from beheer.app_strategievoorstellen(${s.org_id}) r`);
    const body = voorstellen.length ? voorstellen.map((v, i) => `<section aria-labelledby="voorstel-${i}">
<h2 id="voorstel-${i}">Voorstel van ${escape(v.ingediend_door)}, ${escape(moment(v.ingediend_op, s.tijdzone))}</h2>
${table("Velden", ["Veld", "Nu", "Wordt"], v.velden.map((x: { veld: string; nu: string | null; wordt: string | null }) =>
      [escape(x.veld), escape(x.nu ?? "(leeg)"), escape(x.wordt ?? "(leeg)")]), "Dit voorstel wijzigt geen veld.")}
${form(s, "/app/strategie", `<input type="hidden" name="id" value="${escape(v.id)}">
<button type="submit" name="beslissing" value="goedkeuren">Voorstel goedkeuren</button>
<button type="submit" name="beslissing" value="afwijzen">Voorstel afwijzen</button>`)}
</section>`).join("\n") : "<p>Er zijn geen open strategievoorstellen.</p>";
    return page("Strategie", notice(extra) + body, s);
  };

  scope.get("/app/strategie", async (req, reply) => {
    const s = await gate.get(req, reply, STRATEGY, "strategie");
    if (!s) return reply;
    const gedaan = ({ goedkeuren: "Het voorstel is goedgekeurd.", afwijzen: "Het voorstel is afgewezen." } as Record<string, string>)[
      (req.query as Record<string, string>).gedaan ?? ""];
    return sendPage(reply, 200, await strategyPage(s, { gedaan }));
  });

  scope.post("/app/strategie", async (req, reply) => {
    const beslissing = text(((req.body ?? {}) as Record<string, string>), "beslissing", 20);
    const operatie = beslissing === "afwijzen" ? "strategie_afwijzen" : "strategie_goedkeuren";
    const g = await gate.post(req, reply, STRATEGY, operatie);
    if (!g) return reply;
    const { s, f } = g;
    const id = text(f, "id", 100);
    const r = await act(sql, s, operatie, { id, beslissing }, async (tx) => {
      if (!UUID.test(id)) await tx`select app_hidden.ongeldig('id', 'Onbekend voorstel.')`;
      if (beslissing !== "goedkeuren" && beslissing !== "afwijzen") {
        await tx`select app_hidden.ongeldig('beslissing', 'Kies goedkeuren of afwijzen.')`;
      }
      await tx`select beheer.strategie_beoordelen(${s.org_id}, ${id}, ${beslissing === "goedkeuren"}, ${s.user_id})`;
    });
    if (r.fout) return sendPage(reply, 400, await strategyPage(s, { fout: r.fout.bericht }));
    return redirect(reply, `/app/strategie?gedaan=${beslissing}`);
  });

  const notesPage = async (s: Session, extra: { fout?: string; gedaan?: string } = {}) => {
    const notities = await rows(sql`select r from beheer.app_conceptnotities(${s.org_id}, ${s.user_id}) r`);
    return page("Sessienotities", `${notice(extra)}
<p>Conceptnotities zijn alleen voor jou zichtbaar. Na vaststellen ziet de klant ze.</p>
${table("Conceptnotities", ["Datum", "Titel", "Soort", "Samenvatting", ""], notities.map((n) => [
      escape(n.datum), escape(n.titel), escape(n.soort), escape(n.samenvatting),
      form(s, "/app/sessienotities", `<input type="hidden" name="id" value="${escape(n.id)}">
<button type="submit">${escape(n.titel)} vaststellen</button>`)]), "Er zijn geen conceptnotities.")}`, s);
  };

  scope.get("/app/sessienotities", async (req, reply) => {
    const s = await gate.get(req, reply, COACH, "sessienotities");
    if (!s) return reply;
    const gedaan = (req.query as Record<string, string>).gedaan === "vastgesteld" ? "De notitie is vastgesteld." : undefined;
    return sendPage(reply, 200, await notesPage(s, { gedaan }));
  });

  scope.post("/app/sessienotities", async (req, reply) => {
    const g = await gate.post(req, reply, COACH, "sessienotitie_vaststellen");
    if (!g) return reply;
    const { s, f } = g;
    const id = text(f, "id", 100);
    const r = await act(sql, s, "sessienotitie_vaststellen", { id }, async (tx) => {
      if (!UUID.test(id)) await tx`select app_hidden.ongeldig('id', 'Onbekende notitie.')`;
      // Only the coach's own concept notes (beheer.sessienotitie_vaststellen takes any of the organisation).
      const [own] = await tx`select 1 from beheer.app_conceptnotities(${s.org_id}, ${s.user_id}) r where r ->> 'id' = ${id}`;
      if (!own) await tx`select app_hidden.ongeldig('id', 'Dit is geen conceptnotitie van jou.')`;
      await tx`select beheer.sessienotitie_vaststellen(${s.org_id}, ${id}, ${s.user_id})`;
    });
    if (r.fout) return sendPage(reply, 400, await notesPage(s, { fout: r.fout.bericht }));
    return redirect(reply, "/app/sessienotities?gedaan=vastgesteld");
  });
}
