// The owner's pages under /app: sign-in and sign-out, the account page, and the pages of
// src/app/integraties.ts and src/app/strategie.ts. Server-rendered forms, no script. Every
// post passes the same gate (a session, its CSRF token, Koers's own origin); every action goes
// through the CLI's SQL functions (beheer.*) over the administrative connection and is logged
// with door 'app', refused ones too.
import type { FastifyInstance, FastifyReply } from "fastify";
import { RETRY_AFTER_SECONDS, unavailable, type Sql } from "../db/connection.ts";
import { hashPassword, verifyPassword } from "../oauth/password.ts";
import { sha256 } from "../oauth/tokens.ts";
import { escape, form, notice, page } from "./html.ts";
import { act, clearedCookie, currentSession, forgedPost, isSecure, logRefusal, newSessionSecret, parseForm, redirect, sendPage,
  sessionCookie, text, type AppOptions, type Form, type Gate, type Session } from "./session.ts";
import { registerIntegraties } from "./integraties.ts";
import { registerStrategie } from "./strategie.ts";

const ROLE_NAMES: Record<string, string> = { eigenaar: "een eigenaar", admin: "een admin", mt: "een MT-lid", coach: "een coach" };

function forbidden(reply: FastifyReply, s: Session, roles: readonly string[]) {
  return sendPage(reply, 403, page("Geen toegang", `<p class="fout" role="alert">Deze pagina is alleen voor ${
    escape(roles.map((r) => ROLE_NAMES[r] ?? r).join(", "))}; jij bent ${escape(s.rol)} in ${escape(s.org_naam)}.</p>
<p><a href="/app/account">Naar je account</a></p>`, s));
}

function signInForm(options: { email?: string; fout?: string; organisaties?: { org_id: string; naam: string }[] } = {}): string {
  const orgs = options.organisaties?.length
    ? `<label>Organisatie <select name="organisatie" required>${options.organisaties.map((o) =>
      `<option value="${escape(o.org_id)}">${escape(o.naam)}</option>`).join("")}</select></label>` : "";
  return page("Aanmelden bij Koers", `${notice({ fout: options.fout })}
<form method="post" action="/app/aanmelden">
<label>E-mailadres <input type="email" name="email" autocomplete="username" required value="${escape(options.email ?? "")}"></label>
<label>Wachtwoord <input type="password" name="wachtwoord" autocomplete="current-password" required></label>
${orgs}
<button type="submit">Aanmelden</button>
</form>`);
}

export async function mountApp(app: FastifyInstance, sql: Sql, options: AppOptions): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string", bodyLimit: 64 * 1024 },
      (_req, body, done) => {
        try {
          done(null, parseForm(body as string));
        } catch (e) {
          done(e as Error);
        }
      });
    scope.setErrorHandler(async (err: Error & { statusCode?: number; bericht?: string }, req, reply) => {
      if (unavailable(err)) {
        reply.header("retry-after", String(RETRY_AFTER_SECONDS));
        return sendPage(reply, 503, page("Even geduld", "<p>Koers kan de database even niet bereiken. Probeer het over een paar seconden opnieuw.</p>"));
      }
      const status = (err.statusCode ?? 500) < 500 ? err.statusCode! : 500;
      if (status >= 500) req.log.error(err);
      return sendPage(reply, status, page("Dat lukte niet", status < 500
        ? `<p>${err.bericht ? `${escape(err.bericht)} ` : ""}Dit formulier is niet goed verstuurd. Ga terug en probeer het opnieuw.</p>`
        : "<p>Er ging iets mis aan onze kant. Probeer het later opnieuw.</p>"));
    });
    const form0 = (body: unknown): Form => (body && typeof body === "object" ? body : {}) as Form;
    const secure = () => isSecure(options);
    const toSignIn = (reply: FastifyReply) => redirect(reply, "/app/aanmelden");

    const gate: Gate = {
      async get(req, reply, roles, operatie) {
        const s = await currentSession(sql, req, options);
        if (!s) { toSignIn(reply); return null; }
        if (roles.length && !roles.includes(s.rol)) {
          await logRefusal(sql, s, operatie, {}, "rol_mag_niet");
          forbidden(reply, s, roles);
          return null;
        }
        return s;
      },
      async post(req, reply, roles, operatie) {
        const f = form0(req.body);
        const s = await currentSession(sql, req, options);
        const forged = forgedPost(req, s, options, f as Record<string, string>);
        if (forged) {
          if (s) await logRefusal(sql, s, operatie, { reden: forged }, "herkomst_geweigerd");
          sendPage(reply, 403, page("Formulier geweigerd", `<p class="fout" role="alert">${forged === "csrf"
            ? "Dit formulier hoort niet bij je sessie. Open de pagina opnieuw en verstuur het formulier daar."
            : "Dit formulier kwam niet van een pagina van Koers zelf en is niet uitgevoerd."}</p>`));
          return null;
        }
        if (!s) { toSignIn(reply); return null; }
        if (roles.length && !roles.includes(s.rol)) {
          await logRefusal(sql, s, operatie, {}, "rol_mag_niet");
          forbidden(reply, s, roles);
          return null;
        }
        return { s, f };
      },
    };

    scope.get("/app", async (req, reply) => {
      const s = await currentSession(sql, req, options);
      const target = !s ? "/app/aanmelden" : s.rol === "eigenaar" ? "/app/integraties" : "/app/account";
      return redirect(reply, target);
    });

    scope.get("/app/aanmelden", async (_req, reply) => sendPage(reply, 200, signInForm()));

    scope.post("/app/aanmelden", async (req, reply) => {
      const f = form0(req.body);
      if (forgedPost(req, null, options, {})) {
        return sendPage(reply, 403, page("Formulier geweigerd", "<p class=\"fout\" role=\"alert\">Dit formulier kwam niet van een pagina van Koers zelf.</p>"));
      }
      const email = text(f, "email", 320);
      const [row] = await sql`select beheer.app_account(${email}) as r, beheer.app_aanmelden_geblokkeerd(${email}) as geblokkeerd`;
      if (row!.geblokkeerd) {
        return sendPage(reply, 429, signInForm({ email, fout: "Te veel mislukte pogingen met dit e-mailadres. Probeer het over een kwartier opnieuw." }));
      }
      const account = row?.r as { user_id: string; wachtwoord_hash: string | null; organisaties: { org_id: string; naam: string; rol: string }[] } | null;
      if (!(await verifyPassword(text(f, "wachtwoord"), account?.wachtwoord_hash)) || !account) {
        await sql`select beheer.app_aanmelden_mislukt(${email})`;
        return sendPage(reply, 200, signInForm({ email, fout: "Dit e-mailadres en wachtwoord horen niet bij elkaar." }));
      }
      if (!account.organisaties.length) {
        return sendPage(reply, 403, signInForm({ email, fout: "Je bent in geen enkele organisatie actief lid van Koers." }));
      }
      const chosen = text(f, "organisatie");
      const org = account.organisaties.length === 1 ? account.organisaties[0] : account.organisaties.find((o) => o.org_id === chosen);
      if (!org) {
        return sendPage(reply, 200, signInForm({ email, organisaties: account.organisaties,
          fout: "Je bent lid van meer organisaties: kies er een en geef je wachtwoord opnieuw." }));
      }
      const secret = newSessionSecret();
      await sql`select beheer.app_sessie_maken(${org.org_id}, ${account.user_id}, ${sha256(secret)})`;
      return reply.code(303).headers({ location: org.rol === "eigenaar" ? "/app/integraties" : "/app/account",
        "set-cookie": sessionCookie(secret, secure()), "cache-control": "no-store" }).send();
    });

    scope.post("/app/afmelden", async (req, reply) => {
      const g = await gate.post(req, reply, [], "afmelden");
      if (!g) return reply;
      await sql`select beheer.app_afmelden(${g.s.org_id}, ${g.s.sessie_id}, false)`;
      return reply.code(303).headers({ location: "/app/aanmelden", "set-cookie": clearedCookie(secure()), "cache-control": "no-store" }).send();
    });

    const accountPage = (s: Session, options2: { fout?: string; gedaan?: string } = {}) => page("Account", `${notice(options2)}
<p>${escape(s.naam)}, ${escape(s.email)}</p>
<h2>Wachtwoord wijzigen</h2>
${form(s, "/app/account/wachtwoord", `
<label>Huidig wachtwoord <input type="password" name="huidig" autocomplete="current-password" required></label>
<label>Nieuw wachtwoord (minstens 10 tekens) <input type="password" name="nieuw" autocomplete="new-password" minlength="10" required></label>
<label>Nieuw wachtwoord nog eens <input type="password" name="nieuw2" autocomplete="new-password" minlength="10" required></label>
<button type="submit">Wachtwoord wijzigen</button>`)}
<h2>Andere sessies</h2>
<p>Meld je af in elke andere browser waar je in ${escape(s.org_naam)} bent aangemeld. Deze sessie blijft.</p>
${form(s, "/app/account/andere-sessies", `<button type="submit">Andere sessies afmelden</button>`)}`, s);

    scope.get("/app/account", async (req, reply) => {
      const s = await gate.get(req, reply, [], "account");
      if (!s) return reply;
      return sendPage(reply, 200, accountPage(s, { gedaan: ({ wachtwoord: "Je wachtwoord is gewijzigd.",
        sessies: "Je andere sessies zijn afgemeld." } as Record<string, string>)[(req.query as Record<string, string>).gedaan ?? ""] }));
    });

    scope.post("/app/account/wachtwoord", async (req, reply) => {
      const g = await gate.post(req, reply, [], "wachtwoord_wijzigen");
      if (!g) return reply;
      const { s, f } = g;
      const [row] = await sql`select beheer.app_account(${s.email}) as r`;
      const refuse = async (bericht: string) => {
        await logRefusal(sql, s, "wachtwoord_wijzigen", {}, "ongeldige_parameters");
        return sendPage(reply, 400, accountPage(s, { fout: bericht }));
      };
      if (!(await verifyPassword(text(f, "huidig"), (row?.r as { wachtwoord_hash?: string } | null)?.wachtwoord_hash))) {
        return refuse("Je huidige wachtwoord klopt niet.");
      }
      const nieuw = text(f, "nieuw");
      if (nieuw.length < 10) return refuse("Het nieuwe wachtwoord moet minstens 10 tekens hebben.");
      if (nieuw !== text(f, "nieuw2")) return refuse("De twee nieuwe wachtwoorden verschillen.");
      const hash = await hashPassword(nieuw);
      const r = await act(sql, s, "wachtwoord_wijzigen", {}, async (tx) => {
        await tx`select beheer.namens(${s.org_id}, ${s.user_id}, 'wachtwoord_wijzigen', '{}')`;
        await tx`select beheer.wachtwoord_zetten(${s.email}, ${hash})`;
        await tx`select beheer.app_wachtwoord_gegeven(${s.org_id}, ${s.sessie_id})`;
      });
      if (r.fout) return sendPage(reply, 400, accountPage(s, { fout: r.fout.bericht }));
      return redirect(reply, "/app/account?gedaan=wachtwoord");
    });

    scope.post("/app/account/andere-sessies", async (req, reply) => {
      const g = await gate.post(req, reply, [], "andere_sessies_afmelden");
      if (!g) return reply;
      await sql`select beheer.app_afmelden(${g.s.org_id}, ${g.s.sessie_id}, true)`;
      return redirect(reply, "/app/account?gedaan=sessies");
    });

    await registerIntegraties(scope, sql, gate, options);
    await registerStrategie(scope, sql, gate);
  });
}
