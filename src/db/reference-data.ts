// The reference data the database checks every call against, written from the one place each
// list is defined: the operations, their parameters and the rights of each role (src/registry.ts),
// the value lists (src/choices.ts) and the fout codes (src/error-codes.ts). Runs inside the
// migration transaction, before db/ is applied, so db/ derives its constraints from it.
import type postgres from "postgres";
import { operations } from "../registry.ts";
import type { Param } from "../parameters.ts";
import { choices, values, type ChoiceName } from "../choices.ts";
import { errorCodes } from "../error-codes.ts";

const ROLES = values("rol");

/** A parameter's rule as app.operatie_parameters holds it; an element rule is the same, as JSON. */
function rule(p: Param): Record<string, unknown> {
  return {
    type: p.type, verplicht: p.required, waarden: p.values ?? null,
    patroon: p.pattern ?? null, uitleg: p.explanation ?? null, max_lengte: p.maxLength ?? null,
    minimum: p.min ?? null, maximum: p.max ?? null, max_elementen: p.maxItems ?? null, getal: p.numeric ?? false,
    elementen: p.elements
      ? Object.fromEntries(Object.entries(p.elements).map(([naam, e], volgorde) => [naam, { ...rule(e), naam, volgorde }]))
      : null,
  };
}

/** Everything written, as JSON: also what the migration hash covers. */
export function referenceData() {
  return {
    keuzes: (Object.keys(choices) as ChoiceName[]).flatMap((lijst) => {
      const list: readonly string[] | Record<string, string> = choices[lijst];
      return values(lijst).map((waarde, volgorde) => ({
        lijst, waarde, volgorde, betekenis: Array.isArray(list) ? null : (list as Record<string, string>)[waarde]!,
      }));
    }),
    foutcodes: Object.entries(errorCodes).map(([code, e]) => ({ code, status: e.status })),
    operaties: operations.map((o) => ({
      naam: o.name, schrijft: o.writes, sectie: o.section, module: o.module,
      vereist_org: o.requiresOrg ?? true, alleen_mcp: o.onlyMcp ?? false, twee_stappen: o.twoStep ?? true,
    })),
    rol_rechten: operations.flatMap((o) => ROLES.map((rol) => ({
      operatie: o.name, rol, recht: (o.rights as Record<string, string | undefined>)[rol] ?? "alles",
    }))),
    operatie_parameters: operations.flatMap((o) => Object.entries(o.parameters).map(([naam, p], volgorde) => ({
      operatie: o.name, naam, volgorde, ...rule(p),
    }))),
  };
}

export async function writeReferenceData(tx: postgres.TransactionSql): Promise<void> {
  const d = referenceData();
  // The value-list constraints are derived anew by db/005_keuzes.sql; dropped first so the
  // lists can change (an operation in a new section, say) before they are made again.
  const constraints = await tx`
    select c.conrelid::regclass::text as tabel, c.conname from pg_constraint c
    join pg_namespace n on n.oid = c.connamespace
    where n.nspname in ('app', 'app_private') and c.contype = 'c' and c.conname like '%\\_keuze'`;
  for (const c of constraints) await tx.unsafe(`alter table ${c.tabel} drop constraint "${c.conname}"`);

  await tx`delete from app.keuzes`;
  await tx`insert into app.keuzes ${tx(d.keuzes)}`;
  await tx`insert into app.foutcodes ${tx(d.foutcodes)}
           on conflict (code) do update set status = excluded.status`;
  await tx`insert into app.operaties ${tx(d.operaties)}
           on conflict (naam) do update set schrijft = excluded.schrijft, sectie = excluded.sectie,
             module = excluded.module, vereist_org = excluded.vereist_org, alleen_mcp = excluded.alleen_mcp,
             twee_stappen = excluded.twee_stappen`;
  const names = d.operaties.map((o) => o.naam);
  await tx`delete from app.rol_rechten where operatie <> all(${names})`;
  await tx`delete from app.org_rechten where operatie <> all(${names})`;
  await tx`delete from app.operaties where naam <> all(${names})
             and not exists (select 1 from app_private.bevestigcodes b where b.operatie = operaties.naam)`;
  await tx`insert into app.rol_rechten ${tx(d.rol_rechten)}
           on conflict (operatie, rol) do update set recht = excluded.recht`;
  await tx`delete from app.operatie_parameters`;
  await tx`insert into app.operatie_parameters ${tx(d.operatie_parameters)}`;
}
