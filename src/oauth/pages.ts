// The sign-in and consent pages: plain HTML forms, no script, readable in a terminal browser.
// Everything shown that came from outside (an assistant's name and address) is escaped.

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="nl">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escape(title)} – Koers</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 32rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5; }
label { display: block; margin-top: 1rem; }
input[type=email], input[type=password] { width: 100%; padding: .4rem; font-size: 1rem; }
button { margin-top: 1.2rem; margin-right: .5rem; padding: .5rem 1rem; font-size: 1rem; }
.fout { color: #a00; }
code { word-break: break-all; }
</style>
</head>
<body>
<h1>${escape(title)}</h1>
${body}
</body>
</html>
`;
}

export interface Request { id: string; assistent: string; client_id: string; redirect_uri: string }

export function signInPage(r: Request, options: { email?: string; error?: string } = {}): string {
  return page("Aanmelden bij Koers", `
<p><strong>${escape(r.assistent)}</strong> wil namens jou met Koers werken. Meld je aan met je Koers-account.</p>
${options.error ? `<p class="fout" role="alert">${escape(options.error)}</p>` : ""}
<form method="post" action="/oauth/aanmelden">
<input type="hidden" name="aanvraag" value="${escape(r.id)}">
<label>E-mailadres <input type="email" name="email" autocomplete="username" required value="${escape(options.email ?? "")}"></label>
<label>Wachtwoord <input type="password" name="wachtwoord" autocomplete="current-password" required></label>
<button type="submit">Aanmelden</button>
</form>`);
}

export interface ConsentRequest extends Request { naam: string; organisaties: { naam: string; rol: string }[] }

/** `integraties`: the owner's page where the AI connection is switched on ({KOERS_PUBLIC_URL}/app/integraties). */
export function consentPage(r: ConsentRequest, consentToken: string, integraties: string): string {
  const orgs = r.organisaties.length
    ? `<p>De AI-koppeling staat aan in:</p>\n<ul>\n${r.organisaties.map((o) => `<li>${escape(o.naam)} (${escape(o.rol)})</li>`).join("\n")}\n</ul>`
    : `<p>De AI-koppeling staat nog in geen van je organisaties aan; een eigenaar zet haar aan op
<a href="${escape(integraties)}">${escape(integraties)}</a>.</p>`;
  return page("Toegang geven", `
<p>Je bent aangemeld als <strong>${escape(r.naam)}</strong>.</p>
<p><strong>${escape(r.assistent)}</strong> vraagt toegang tot Koers namens jou. De assistent krijgt precies jouw
rechten, in elke organisatie waar de AI-koppeling aan staat. Schrijven gebeurt pas na jouw bevestiging in het gesprek.</p>
${orgs}
<p>Na je keuze ga je terug naar:<br><code>${escape(r.redirect_uri)}</code></p>
<p>Geef alleen toegang als je deze assistent zelf net hebt gekoppeld en dit adres herkent.</p>
<form method="post" action="/oauth/toestemming">
<input type="hidden" name="aanvraag" value="${escape(r.id)}">
<input type="hidden" name="toestemming" value="${escape(consentToken)}">
<button type="submit" name="beslissing" value="toestaan">Toegang geven</button>
<button type="submit" name="beslissing" value="weigeren">Weigeren</button>
</form>`);
}

export function messagePage(title: string, text: string): string {
  return page(title, `<p>${escape(text)}</p>`);
}
