// The reference page for people at /api/v1/docs, generated from the registry like the index
// and the OpenAPI document: operations grouped by section, their parameters and rules, the
// refusals that apply, what they answer, and a curl line to try. One self-contained HTML page:
// its only style is the inline sheet below, allowed by hash in the Content-Security-Policy,
// which forbids loading anything else.
import crypto from "node:crypto";
import { operations, restPath, httpMethod, type Operation } from "./registry.ts";
import { values } from "./choices.ts";
import { errorCodes } from "./error-codes.ts";
import type { Param } from "./parameters.ts";
import { refusalsByStatus, schemaName, successSchemas, type Schema } from "./schemas.ts";
import { SPELLINGS, TWO_STEP_RULE } from "./api-docs.ts";

const CSS = `
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d2329;max-width:72rem;margin:0 auto;padding:1rem 1.5rem 4rem}
h1{margin-bottom:.2rem}h2{margin-top:2.5rem;border-bottom:2px solid #2f6f4f;padding-bottom:.2rem}
h3{margin:2rem 0 .3rem;font-family:ui-monospace,Menlo,Consolas,monospace}
code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em}
pre{background:#f3f5f4;border:1px solid #dde3e0;padding:.6rem .8rem;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{border:1px solid #dde3e0;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f3f5f4}.m{display:inline-block;min-width:3.2rem;font-weight:600;color:#fff;background:#2f6f4f;border-radius:3px;padding:0 .4rem;text-align:center}
.m.post{background:#8a4b12}.label{color:#5a6570}.op{border-top:1px solid #dde3e0}nav ul{columns:3 14rem}
`.trim();

export const DOCS_CSP = `default-src 'none'; style-src 'sha256-${crypto.createHash("sha256").update(CSS).digest("base64")}'; ` +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const SECTION_TITLES: Record<string, string> = {
  team: "Team", prioriteiten: "Prioriteiten, taken en projecten", kpis: "KPI's", weektaken: "Weektaken",
  reviews: "Reviews en reflecties", financien: "Financiën",
};

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** A value for a parameter in an example: valid by its rules, or a placeholder to fill in. */
export function exampleValue(name: string, p: Param): string {
  if (p.values?.length && p.type !== "object") return p.values[0]!;
  switch (p.type) {
    case "uuid": return `<${name}>`;
    case "integer": return String(Math.max(p.min ?? 1, 1));
    case "number": return String(Math.max(p.min ?? 1, 1));
    // A form carries an object, or a list of objects, as JSON text.
    case "array": return p.elements ? JSON.stringify([exampleObject(p.elements)]) : "voorbeeld";
    case "object": return JSON.stringify({ [p.values?.[0] ?? "sleutel"]: "Voorbeeld" });
    default:
      if (p.numeric) return "2";
      if (!p.pattern) return "Voorbeeld";
      // The shapes the registry's patterns ask for; the docs test checks each against its pattern.
      for (const candidate of ["2026-01-15", "Q3-2026", "2026-W40", "2026-09", "2026-Q3"]) {
        if (new RegExp(p.pattern).test(candidate)) return candidate;
      }
      return `<${name}>`;
  }
}

/** An element of a list of objects, with its required keys. */
function exampleObject(elements: Record<string, Param>): Record<string, string> {
  return Object.fromEntries(Object.entries(elements).filter(([, e]) => e.required).map(([k, e]) => [k, exampleValue(k, e)]));
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * A curl line for an operation with its required parameters (and the registry's example), with
 * the key in $KOERS_SLEUTEL, the address in $KOERS_URL and the organisation in $ORG_ID. A
 * write's body is a form (an object as JSON text).
 */
export function curlExample(o: Operation, extra: Record<string, string> = {}): string {
  const required = Object.entries(o.parameters).filter(([n, p]) => p.required || o.example?.[n] !== undefined);
  const value = (n: string, p: Param) => (n === "org_id" ? "$ORG_ID" : o.example?.[n] ?? exampleValue(n, p));
  const auth = `-H "Authorization: Bearer $KOERS_SLEUTEL"`;
  if (!o.writes) {
    // Placeholders stay readable; example values are URL-safe already.
    const query = required.map(([n, p]) => `${n}=${value(n, p)}`);
    const url = `$KOERS_URL${restPath(o)}${query.length ? `?${query.join("&")}` : ""}`;
    return `curl ${auth} "${url}"`;
  }
  const fields = [...required.map(([n, p]) => [n, value(n, p)] as const), ...Object.entries(extra)]
    .map(([n, v]) => (v === "$ORG_ID" ? `-d "${n}=$ORG_ID"` : `--data-urlencode ${shellQuote(`${n}=${v}`)}`));
  return `curl ${auth} "$KOERS_URL${restPath(o)}" ${fields.join(" ")}`;
}

/** A parameter's rules in words. */
function rules(p: Param): string {
  const parts: string[] = [];
  if (p.values?.length) parts.push(`${p.type === "object" ? "sleutels" : "waarden"}: ${p.values.map((v) => `<code>${esc(v)}</code>`).join(", ")}`);
  if (p.type === "vlag") parts.push("ook <code>true</code>/<code>false</code>");
  if (p.explanation) parts.push(esc(p.explanation));
  else if (p.pattern) parts.push(`patroon <code>${esc(p.pattern)}</code>`);
  if (!p.pattern && (p.type === "string" || (p.type === "text" && !p.numeric))) parts.push(`hoogstens ${p.maxLength} tekens`);
  if (p.type === "text") parts.push(p.numeric ? "een getal, of null om te wissen" : "null wist de waarde");
  if (p.elements) {
    parts.push(`elk element een object {${Object.entries(p.elements).map(([k, e]) => `<code>${esc(k)}</code>${e.required ? " (verplicht)" : ""}`)
      .join(", ")}}; in een form als JSON-tekst`);
  }
  if (p.type === "object") parts.push("in een form als JSON-tekst");
  if (p.type === "array") parts.push(`hoogstens ${p.maxItems} elementen`);
  if (p.min !== undefined && p.min > -2147483648) parts.push(`minstens ${p.min}`);
  if (p.max !== undefined && p.max < 2147483647) parts.push(`hoogstens ${p.max}`);
  return parts.join("; ");
}

/** A schema's type in a few words: "Taak[]", "Persoon | null", "tekst". */
function typeName(x: Schema): string {
  const name = schemaName(x);
  if (name) return name;
  if (Array.isArray(x.anyOf)) return (x.anyOf as Schema[]).map(typeName).join(" | ");
  if (Array.isArray(x.oneOf)) return (x.oneOf as Schema[]).map(typeName).join(" | ");
  if ("const" in x) return JSON.stringify(x.const);
  const types = (Array.isArray(x.type) ? x.type : [x.type]) as (string | undefined)[];
  return types.map((t) => {
    switch (t) {
      case "array": return `${typeName(x.items as Schema)}[]`;
      case "object": return x.properties ? `{${Object.keys(x.properties as object).join(", ")}}` : "object";
      case "string": return x.format === "uuid" ? "uuid" : x.format === "date" ? "datum" : x.format === "date-time" ? "tijdstip" : "tekst";
      case "integer": return "geheel getal";
      case "number": return "getal";
      case "boolean": return "boolean";
      case "null": return "null";
      default: return "JSON";
    }
  }).join(" | ");
}

function answer(o: Operation): string {
  return successSchemas(o).map((a) => {
    const props = Object.entries((a.schema.properties ?? {}) as Record<string, Schema>);
    const required = new Set(a.schema.required as string[]);
    return `<p><span class="label">${esc(a.description)}</span> <code>{${props.map(([k, v]) =>
      `${esc(k)}${required.has(k) ? "" : "?"}: ${esc(typeName(v))}`).join(", ")}}</code></p>`;
  }).join("\n");
}

function operationHtml(o: Operation): string {
  const params = Object.entries(o.parameters);
  const twoStep = o.writes && (o.twoStep ?? true);
  const rights = Object.entries({ eigenaar: "alles", admin: "alles", mt: "alles", ...o.rights })
    .map(([role, right]) => `${role}: ${right}`).join(", ");
  return `<section class="op" id="${o.name}">
<h3>${esc(o.name)}</h3>
<p><span class="m ${httpMethod(o).toLowerCase()}">${httpMethod(o)}</span> <code>${esc(restPath(o))}</code>
${o.writes ? (twoStep ? " · schrijft, in twee stappen" : " · schrijft, in één stap") : " · leest"}</p>
<p>${esc(o.description)}</p>
<p><span class="label">Rechten:</span> ${esc(rights)}</p>
${params.length ? `<table><thead><tr><th>Parameter</th><th>Type</th><th>Verplicht</th><th>Toelichting</th><th>Regels</th></tr></thead><tbody>
${params.map(([n, p]) => `<tr><td><code>${esc(n)}</code></td><td>${esc(p.type)}</td><td>${p.required ? "ja" : "nee"}</td>` +
    `<td>${esc(p.description)}</td><td>${rules(p)}</td></tr>`).join("\n")}
</tbody></table>` : "<p>Geen parameters.</p>"}
<p><span class="label">Antwoord:</span></p>
${answer(o)}
<p><span class="label">Weigeringen:</span> ${[...refusalsByStatus(o)].flatMap(([status, codes]) => codes.map((c) => `<code>${status} ${c}</code>`)).join(", ")}</p>
<pre>${esc(curlExample(o))}${twoStep ? `\n# stap 2, na een ja: dezelfde invoer met de code uit het voorstel\n${esc(curlExample(o, { bevestigcode: "K7F-3QX" }))}` : ""}</pre>
</section>`;
}

function sections(): { title: string; ops: Operation[] }[] {
  const rest = operations.filter((o) => !o.onlyMcp);
  return [null, ...values("sectie")].map((section) => ({
    title: section === null ? "Zonder onderdeel" : SECTION_TITLES[section] ?? section,
    ops: rest.filter((o) => o.section === section),
  })).filter((g) => g.ops.length > 0);
}

const pages = new Map<string, string>();

/**
 * The page, with its examples at `origin` (the address the reader used). The registry does
 * not change while Koers runs, so it is made once per address (a few at most are kept).
 */
export function docsPage(origin = "http://127.0.0.1:3000"): string {
  const cached = pages.get(origin);
  if (cached) return cached;
  if (pages.size >= 8) pages.clear();
  const page = `<!doctype html>
<html lang="nl">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Koers REST API v1</title>
<style>${CSS}</style>
</head>
<body>
<h1>Koers REST API v1</h1>
<p>Gemaakt uit de lijst van operaties waarmee Koers draait, dus altijd gelijk aan wat er draait.
Voor programma's: <a href="/api/v1/openapi.json">OpenAPI 3.1</a> en <a href="/api/v1">de index</a>.</p>

<h2>Beginnen</h2>
<p>Het basisadres is <code>/api/v1</code>. Stuur een API-sleutel mee als <code>Authorization: Bearer &lt;sleutel&gt;</code>;
een sleutel hoort bij één organisatie en ziet wat de persoon die hem maakte in de app ziet. Elke operatie behalve
<code>wie_ben_ik</code> vraagt <code>org_id</code>, de organisatie van de sleutel (<code>wie_ben_ik</code> noemt haar).
Lezen is GET met de parameters in de querystring; schrijven is POST met een body.</p>
<p>De voorbeelden gebruiken drie variabelen; <code>&lt;...&gt;</code> vul je zelf in (een id uit een ander antwoord):</p>
<pre>export KOERS_URL=${esc(origin)}
export KOERS_SLEUTEL=koers_live_...
export ORG_ID=...   # organisatie.org_id uit: curl -H "Authorization: Bearer $KOERS_SLEUTEL" $KOERS_URL/api/v1/wie-ben-ik</pre>

<h2>Schrijven in twee stappen</h2>
<p>${esc(TWO_STEP_RULE)}</p>

<h2>Parameters</h2>
<p>${esc(SPELLINGS)}</p>

<h2>Fouten</h2>
<p>Elk antwoord dat geen 200 is, heeft <code>{"fout": {"code", "bericht", "parameter"?}}</code>. Bouw op de code; het
bericht is voor mensen en kan veranderen. Per operatie staat welke codes ze kan geven.</p>
<table><thead><tr><th>Status</th><th>Code</th><th>Wanneer</th></tr></thead><tbody>
${Object.entries(errorCodes).sort(([, a], [, b]) => a.status - b.status).map(([code, e]) => `<tr><td>${e.status}</td><td><code>${code}</code></td><td>${esc(e.when)}</td></tr>`).join("\n")}
</tbody></table>

<h2>Operaties</h2>
<nav><ul>
${sections().flatMap((g) => g.ops.map((o) => `<li><a href="#${o.name}">${esc(o.name)}</a> <span class="label">${esc(g.title)}</span></li>`)).join("\n")}
</ul></nav>
${sections().map((g) => `<h2>${esc(g.title)}</h2>\n${g.ops.map(operationHtml).join("\n")}`).join("\n")}
</body>
</html>
`;
  pages.set(origin, page);
  return page;
}
