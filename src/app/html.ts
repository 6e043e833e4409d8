// HTML of the owner's pages: plain forms that work without script, every control with a
// visible label, buttons that say what they do. Everything shown that came from a person or the
// database is escaped.
import type { Session } from "./session.ts";

export function escape(text: unknown): string {
  return String(text ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** A moment as Dutch speakers write it, in the organisation's time zone; empty for none. */
export function moment(iso: unknown, timeZone: string): string {
  if (!iso) return "";
  return new Date(String(iso)).toLocaleString("nl-NL", { timeZone, dateStyle: "short", timeStyle: "medium" });
}

const STYLE = `
body { font-family: system-ui, sans-serif; max-width: 70rem; margin: 1rem auto; padding: 0 1rem; line-height: 1.5; }
nav ul { list-style: none; padding: 0; display: flex; gap: 1.2rem; flex-wrap: wrap; }
label { display: block; margin-top: .6rem; }
fieldset { margin: .8rem 0; }
input[type=email], input[type=password], input[type=text], input[type=url] { width: 100%; max-width: 30rem; padding: .3rem; font-size: 1rem; }
button { margin: .3rem .3rem .3rem 0; padding: .3rem .8rem; font-size: 1rem; }
table { border-collapse: collapse; margin: .5rem 0; }
th, td { border: 1px solid #bbb; padding: .2rem .5rem; text-align: left; vertical-align: top; }
.fout { color: #a00; }
.gedaan { color: #060; }
.geheim { font-family: monospace; font-size: 1.1rem; background: #ffe; padding: .5rem; border: 2px solid #cc0; word-break: break-all; }
td form { display: inline; }
`;

/** A whole page; with a session, the navigation and the sign-out button. */
export function page(title: string, body: string, session?: Session | null): string {
  const nav = session ? `<nav aria-label="Hoofdmenu"><ul>
${session.rol === "eigenaar" ? `<li><a href="/app/integraties">Integraties</a></li>` : ""}
${["eigenaar", "admin", "mt"].includes(session.rol) ? `<li><a href="/app/strategie">Strategie</a></li>` : ""}
${session.rol === "coach" ? `<li><a href="/app/sessienotities">Sessienotities</a></li>` : ""}
<li><a href="/app/account">Account</a></li>
<li><form method="post" action="/app/afmelden">${csrfField(session)}<button type="submit">Afmelden</button></form></li>
</ul>
<p>Aangemeld als <strong>${escape(session.naam)}</strong> (${escape(session.rol)}) in <strong>${escape(session.org_naam)}</strong></p>
</nav>` : "";
  return `<!doctype html>
<html lang="nl">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} – Koers</title>
<style>${STYLE}</style>
</head>
<body>
<header>${nav}</header>
<main>
<h1>${escape(title)}</h1>
${body}
</main>
</body>
</html>
`;
}

export function csrfField(session: Session): string {
  return `<input type="hidden" name="csrf" value="${escape(session.csrf)}">`;
}

/** A form posting to `action`, with the session's CSRF token. */
export function form(session: Session, action: string, inner: string, attributes = ""): string {
  return `<form method="post" action="${escape(action)}"${attributes}>${csrfField(session)}${inner}</form>`;
}

export function notice(options: { fout?: string | null; gedaan?: string | null }): string {
  return (options.fout ? `<p class="fout" role="alert">${escape(options.fout)}</p>` : "") +
    (options.gedaan ? `<p class="gedaan" role="status">${escape(options.gedaan)}</p>` : "");
}

/** A table with a caption; cells are HTML (escape what needs it). */
export function table(caption: string, headers: string[], rows: string[][], empty: string): string {
  if (!rows.length) return `<p>${escape(empty)}</p>`;
  return `<table><caption>${escape(caption)}</caption><thead><tr>${headers.map((h) => `<th scope="col">${escape(h)}</th>`).join("")}</tr></thead>
<tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join("")}</tr>`).join("\n")}</tbody></table>`;
}

/** A secret shown once, with the instruction to store it now. */
export function secret(label: string, value: string): string {
  return `<section aria-labelledby="geheim-kop"><h2 id="geheim-kop">${escape(label)}</h2>
<p>Bewaar dit nu: Koers toont het nooit meer.</p>
<p class="geheim" id="geheim">${escape(value)}</p></section>`;
}
