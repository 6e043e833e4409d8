// The reference page for people at /api/v1/docs: served by Koers as one self-contained HTML page
// (nothing loaded from elsewhere, a Content-Security-Policy that forbids it), listing every
// operation with its parameters, refusals and a curl line that works.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import crypto from "node:crypto";
import { execFile } from "node:child_process";
import { operations, restPath, httpMethod } from "../src/registry.ts";
import { refusalCodes } from "../src/schemas.ts";
import { curlExample, exampleValue } from "../src/docs-page.ts";
import { setupWorld, writeTwoStep } from "./helpers.ts";

// Task 1 exists, so the example of taak_geschiedenis (nummer=1) finds it.
const o = setupWorld({
  now: "2026-05-13T10:00:00+02:00",
  afterSetup: async (o) => {
    await writeTwoStep(o.baseUrl, "/api/v1/taak-toevoegen", o.w.members.eigenaar.apiKey, { org_id: o.w.org, omschrijving: "Eerste" });
  },
});
const restOperations = operations.filter((x) => !x.onlyMcp);

async function page() {
  const r = await fetch(`${o.baseUrl}/api/v1/docs`);
  return { status: r.status, headers: r.headers, html: await r.text() };
}

function sh(script: string, env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => execFile("bash", ["-c", script], { env: { ...process.env, ...env } },
    (e, out, err) => resolve({ code: e ? Number(e.code ?? 1) : 0, out, err })));
}

describe("/api/v1/docs", () => {
  it("is HTML served by Koers, with a Content-Security-Policy that forbids remote loads", async () => {
    const { status, headers, html } = await page();
    assert.equal(status, 200);
    assert.equal(headers.get("content-type"), "text/html; charset=utf-8");
    assert.equal(headers.get("x-content-type-options"), "nosniff");
    const csp = headers.get("content-security-policy") ?? "";
    assert.match(csp, /default-src 'none'/);
    assert.doesNotMatch(csp, /unsafe|https?:|\*/);
    // The one inline style sheet is allowed by its hash, nothing else.
    const css = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
    assert.ok(css.length > 0);
    assert.ok(csp.includes(`style-src 'sha256-${crypto.createHash("sha256").update(css).digest("base64")}'`), csp);
    assert.equal(html.match(/<style>/g)?.length, 1);
  });

  it("shows its examples at the address the reader used", async () => {
    assert.ok((await page()).html.includes(`<pre>export KOERS_URL=${o.baseUrl}\n`));
    const port = new URL(o.baseUrl).port;
    const asLocalhost = await (await fetch(`http://localhost:${port}/api/v1/docs`)).text();
    assert.ok(asLocalhost.includes(`<pre>export KOERS_URL=http://localhost:${port}\n`));
  });

  it("loads nothing from elsewhere: no script, no external link, font, image or style", async () => {
    const { html } = await page();
    assert.doesNotMatch(html, /<script|<link|<img|<iframe|<object|<embed|@import|url\(|@font-face|\sstyle=|\son[a-z]+=/i);
    for (const [, target] of html.matchAll(/\s(?:href|src|action)="([^"]*)"/g)) {
      assert.match(target!, /^(#[a-z_]+|\/api\/v1(\/[a-z.-]*)?)$/, `link to ${target}`);
    }
  });

  it("lists every operation with its method, path, parameters, refusal codes and a curl line", async () => {
    const { html } = await page();
    for (const op of restOperations) {
      const start = html.indexOf(`<section class="op" id="${op.name}">`);
      assert.ok(start >= 0, `${op.name} is missing`);
      const section = html.slice(start, html.indexOf("</section>", start));
      assert.ok(section.includes(`>${httpMethod(op)}</span> <code>${restPath(op)}</code>`), op.name);
      for (const name of Object.keys(op.parameters)) assert.ok(section.includes(`<td><code>${name}</code></td>`), `${op.name} ${name}`);
      for (const code of refusalCodes(op)) assert.ok(section.includes(code), `${op.name} ${code}`);
      assert.ok(section.includes(`curl -H &quot;Authorization: Bearer $KOERS_SLEUTEL&quot; &quot;$KOERS_URL${restPath(op)}`), op.name);
      assert.ok(html.includes(`<a href="#${op.name}">`), `${op.name} in the contents`);
      if (op.writes && (op.twoStep ?? true)) assert.ok(section.includes("bevestigcode=K7F-3QX"), `${op.name} step 2`);
    }
    assert.match(html, /twee stappen/i);
    assert.match(html, /tags\[\]=a/);
  });

  it("example values obey their parameter's rules", () => {
    for (const op of restOperations) {
      for (const [name, p] of Object.entries(op.parameters)) {
        const v = exampleValue(name, p);
        if (v === `<${name}>`) continue; // an id to fill in
        if (p.pattern) assert.match(v, new RegExp(p.pattern), `${op.name} ${name}`);
        if (p.values && p.type !== "object" && p.type !== "vlag") assert.ok(p.values.includes(v), `${op.name} ${name}`);
      }
    }
  });

  it("the curl lines work: run with bash against this Koers, those needing no id answer 200", async () => {
    const env = { KOERS_URL: o.baseUrl, KOERS_SLEUTEL: o.w.members.eigenaar.apiKey, ORG_ID: o.w.org };
    const ran: string[] = [];
    for (const op of restOperations) {
      const line = curlExample(op);
      if (line.includes("<")) continue; // names an id to fill in
      const r = await sh(`${line} -s -w '\\n%{http_code}'`, env);
      assert.equal(r.code, 0, r.err);
      const [body, status] = [r.out.slice(0, r.out.lastIndexOf("\n")), r.out.slice(r.out.lastIndexOf("\n") + 1)];
      assert.equal(status, "200", `${op.name}: ${line}\n${body}`);
      if (op.writes && (op.twoStep ?? true)) {
        const code = JSON.parse(body).bevestigcode as string;
        const second = await sh(`${curlExample(op, { bevestigcode: code })} -s`, env);
        assert.equal(JSON.parse(second.out).uitgevoerd, true, `${op.name} step 2: ${second.out}`);
      }
      ran.push(op.name);
    }
    assert.ok(ran.length >= 8, `only ${ran.join(", ")} ran`);
  });
});
