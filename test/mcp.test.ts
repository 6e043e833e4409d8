// The AI connection end to end, with the MCP SDK's own clients and their own OAuth handling: a
// 2025-era client (SDK v1, protocol 2025-11-25) and a 2026-07-28 client (SDK v2, pinned). Each
// registers, is sent to the sign-in form with a PKCE S256 challenge, gets its tokens after
// consent, calls every tool of the registry, and refreshes (a rotated refresh token) when its
// access token has expired.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError as UnauthorizedV1 } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2, UnauthorizedError as UnauthorizedV2 } from "@modelcontextprotocol/client";
import { makeWorld, testDatabase, lastCall, type TestDb, type World } from "./helpers.ts";
import { aiDoorOn, browserSignIn, email, field, rawMcp, startKoersMcp, TestClientProvider, type KoersMcp } from "./mcp-helpers.ts";
import { mcpOperations, type Operation } from "../src/registry.ts";

const NOW = "2026-05-14T08:00:00Z"; // Thursday of week 20, Q2-2026

let db: TestDb;
let koers: KoersMcp;
let w: World;
before(async () => {
  db = await testDatabase();
  koers = await startKoersMcp(db.url, { now: NOW });
  w = await makeWorld(db.sql);
  await aiDoorOn(db.sql, w);
});
after(async () => {
  await koers.stop();
  await db.drop();
});

interface AnyClient {
  connect(t: unknown): Promise<void>;
  listTools(): Promise<{ tools: { name: string; title?: string; inputSchema: unknown; outputSchema?: unknown; annotations?: Record<string, unknown> }[] }>;
  callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<Record<string, any>>;
  close(): Promise<void>;
}
interface AnyTransport { finishAuth(x: unknown): Promise<void> }

const eras = [
  {
    name: "2025 era (SDK v1)",
    version: "2025-11-25",
    client: () => new ClientV1({ name: "koers-test-2025", version: "1.0.0" }) as unknown as AnyClient,
    transport: (p: TestClientProvider) => new TransportV1(new URL("/mcp", koers.baseUrl), { authProvider: p as never }) as unknown as AnyTransport,
    unauthorized: UnauthorizedV1 as unknown as new () => Error,
    finish: (t: AnyTransport, redirect: URL) => t.finishAuth(redirect.searchParams.get("code")!),
    negotiated: (_c: AnyClient, t: AnyTransport) => (t as unknown as { protocolVersion?: string }).protocolVersion,
  },
  {
    name: "2026-07-28 (SDK v2)",
    version: "2026-07-28",
    client: () => new ClientV2({ name: "koers-test-2026", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } } as never) as unknown as AnyClient,
    transport: (p: TestClientProvider) => new TransportV2(new URL("/mcp", koers.baseUrl), { authProvider: p as never }) as unknown as AnyTransport,
    unauthorized: UnauthorizedV2 as unknown as new () => Error,
    finish: (t: AnyTransport, redirect: URL) => t.finishAuth(redirect.searchParams),
    negotiated: (c: AnyClient) => (c as unknown as { getNegotiatedProtocolVersion(): string }).getNegotiatedProtocolVersion(),
  },
];

/** Valid input for the operations of the registry as they stand; ids come from earlier answers. */
function inputFor(o: Operation, ids: Record<string, any>): Record<string, unknown> | undefined {
  const org = { org_id: w.org };
  const me = w.members.eigenaar.user_id;
  const inputs: Record<string, Record<string, unknown>> = {
    organisaties: {},
    wie_ben_ik: {},
    team: org, prioriteiten: org, kpi_scorebord: org, weektaken: org, taken: org, projecten: org,
    prioriteit_aanmaken: { ...org, titel: "Nieuwe klanten", soort: "rock", eigenaar_user_id: me },
    kpi_aanmaken: { ...org, naam: "Klanttevredenheid", eigenaar_user_id: me, meetsoort: "stand", cadans: "week" },
    kpi_meting_invoeren: { ...org, kpi_id: ids.kpi, waarde: 8, toelichting: "Eerste meting" },
    taak_toevoegen: { ...org, omschrijving: "Offerte sturen", prioriteit_id: ids.prioriteit },
    taak_bijwerken: { ...org, taak_id: ids.taak, stand: "in_uitvoering" },
    taak_geschiedenis: { ...org, nummer: ids.taaknummer },
    weektaak_toevoegen: { ...org, titel: "Klant bellen" },
    dagprioriteiten_zetten: { ...org, prioriteit_1: "Offerte afmaken" },
    project_aanmaken: { ...org, titel: "Nieuwe website", eigenaar_user_id: me },
  };
  return inputs[o.name];
}

// Writes that others depend on go first.
const ORDER = ["prioriteit_aanmaken", "kpi_aanmaken", "taak_toevoegen"];
const ordered = [...mcpOperations].sort((a, b) =>
  (ORDER.includes(a.name) ? ORDER.indexOf(a.name) : 99) - (ORDER.includes(b.name) ? ORDER.indexOf(b.name) : 99));

for (const era of eras) {
  describe(`MCP with a ${era.name} client`, () => {
    const provider = new TestClientProvider(`Testassistent ${era.version}`);
    let client: AnyClient;
    let transport: AnyTransport;

    it("signs in: registration, authorization with PKCE S256, the sign-in form, consent, tokens", async () => {
      const first = era.client();
      const t = era.transport(provider);
      await assert.rejects(first.connect(t), era.unauthorized);
      // Registered dynamically, as a public client, nothing secret stored.
      assert.match(provider.clientId, /^[0-9a-f-]{36}$/);
      const [registered] = await db.sql`select metadata from app_private.mcp_clients where client_id = ${provider.clientId}`;
      assert.equal(registered!.metadata.token_endpoint_auth_method, "none");
      assert.equal(registered!.metadata.client_secret, undefined);
      // Sent to the authorization endpoint with an S256 challenge for the /mcp resource.
      const url = provider.authorizationUrl!;
      assert.equal(url.origin + url.pathname, `${koers.baseUrl}/oauth/authorize`);
      assert.equal(url.searchParams.get("code_challenge_method"), "S256");
      assert.equal(url.searchParams.get("resource"), `${koers.baseUrl}/mcp`);

      const { redirect, signIn, consent } = await browserSignIn(url, { email: await email(db.sql, w.members.eigenaar) });
      assert.match(signIn.html, /<form method="post" action="\/oauth\/aanmelden">/);
      assert.match(signIn.html, new RegExp(`Testassistent ${era.version}`));
      assert.doesNotMatch(signIn.html, /<script/i);
      assert.match(consent.html, /name="beslissing" value="toestaan"/);
      assert.match(consent.html, /name="beslissing" value="weigeren"/);
      assert.match(consent.html, new RegExp(`Testassistent ${era.version}`), "the consent page names the assistant");
      assert.ok(consent.html.includes(provider.redirectUrl), "and its redirect address");
      assert.match(consent.html, /Acme BV \(eigenaar\)/, "and where the AI door is on");
      assert.equal(redirect.origin + redirect.pathname, provider.redirectUrl);
      assert.equal(redirect.searchParams.get("iss"), koers.baseUrl);

      await era.finish(t, redirect);
      assert.match(provider.accessToken, /^koers_at_[0-9A-Za-z]{38}$/);
      assert.match(provider.refreshToken, /^koers_rt_[0-9A-Za-z]{38}$/);
      const stored = await db.sql`select count(*)::int as n from app_private.mcp_tokens
        where hash in (sha256(convert_to(${provider.accessToken}, 'UTF8')), sha256(convert_to(${provider.refreshToken}, 'UTF8')))`;
      assert.equal(stored[0]!.n, 1, "only hashes are stored (the access token's covers its resource)");

      client = era.client();
      transport = era.transport(provider);
      await client.connect(transport);
      assert.equal(era.negotiated(client, transport), era.version);
    });

    it("lists every operation of the registry as a tool, with schemas, title and annotations", async () => {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), mcpOperations.map((o) => o.name).sort());
      for (const o of mcpOperations) {
        const t = tools.find((x) => x.name === o.name)!;
        assert.ok(t.title, `${o.name} has a title`);
        assert.equal(t.annotations!.readOnlyHint, !o.writes, `${o.name} readOnlyHint`);
        if (o.writes) {
          assert.equal(t.annotations!.destructiveHint, o.destructive ?? false, `${o.name} destructiveHint`);
          assert.equal(t.annotations!.idempotentHint, o.twoStep ?? true, `${o.name} idempotentHint`);
        }
        assert.deepEqual(Object.keys((t.inputSchema as { properties: object }).properties).sort(), Object.keys(o.parameters).sort());
        assert.deepEqual(t.outputSchema, { type: "object" });
      }
    });

    it("calls every tool: reads answer, writes propose and then write with the code", async () => {
      const ids: Record<string, any> = {};
      for (const o of ordered) {
        const input = inputFor(o, ids) ?? ((o.requiresOrg ?? true) ? { org_id: w.org } : {});
        const r = await client.callTool({ name: o.name, arguments: input });
        if (!inputFor(o, ids)) {
          // An operation registered after this test was written: the database answers it.
          assert.ok(!r.isError || r.structuredContent.fout.code === "ongeldige_parameters", `${o.name}: ${JSON.stringify(r)}`);
          continue;
        }
        assert.equal(r.isError, undefined, `${o.name}: ${JSON.stringify(r.structuredContent)}`);
        assert.deepEqual(JSON.parse(r.content[0].text), r.structuredContent, `${o.name}: the same JSON as text`);
        const log = await lastCall(db.sql, w.org);
        assert.deepEqual([log.door, log.operatie, log.status, log.user_id], ["mcp", o.name, 200, w.members.eigenaar.user_id]);
        if (!o.writes || o.twoStep === false) continue;
        assert.ok(r.structuredContent.voorstel, `${o.name} proposes first`);
        assert.match(r.structuredContent.bevestigcode, /^[A-Z2-9]{3}-[A-Z2-9]{3}$/);
        const done = await client.callTool({ name: o.name, arguments: { ...input, bevestigcode: r.structuredContent.bevestigcode } });
        assert.equal(done.structuredContent.uitgevoerd, true, `${o.name}: ${JSON.stringify(done.structuredContent)}`);
        const again = await client.callTool({ name: o.name, arguments: { ...input, bevestigcode: r.structuredContent.bevestigcode } });
        assert.deepEqual(again.structuredContent, done.structuredContent, `${o.name}: a confirmed code replays its result`);
        const body = done.structuredContent;
        ids.prioriteit ??= body.prioriteit?.id;
        ids.kpi ??= body.kpi?.id;
        if (body.taak) [ids.taak, ids.taaknummer] = [ids.taak ?? body.taak.id, ids.taaknummer ?? body.taak.nummer];
      }
      assert.ok(ids.prioriteit && ids.kpi && ids.taak, JSON.stringify(ids));
    });

    it("a refusal is an error result carrying the fout, as text and structured", async () => {
      const r = await client.callTool({ name: "taken", arguments: { org_id: w.org, soort: "alles" } });
      assert.equal(r.isError, true);
      assert.deepEqual(r.structuredContent.fout.code, "ongeldige_parameters");
      assert.equal(r.structuredContent.fout.parameter, "soort");
      assert.deepEqual(JSON.parse(r.content[0].text), r.structuredContent);
    });

    it("refreshes an expired access token with its refresh token, which rotates", async () => {
      const [oldAccess, oldRefresh] = [provider.accessToken, provider.refreshToken];
      // The access token expires (30 minutes after it was issued).
      await db.sql`update app_private.mcp_tokens set verloopt_op = ${NOW}::timestamptz - interval '1 second'
        where soort = 'toegang' and verbinding_id =
          (select verbinding_id from app_private.mcp_tokens where hash = sha256(convert_to(${oldRefresh}, 'UTF8')))`;
      const r = await client.callTool({ name: "team", arguments: { org_id: w.org } });
      assert.equal(r.isError, undefined, JSON.stringify(r));
      assert.notEqual(provider.accessToken, oldAccess, "a new access token");
      assert.notEqual(provider.refreshToken, oldRefresh, "and a new refresh token");
      const [used] = await db.sql`select gebruikt_op from app_private.mcp_tokens where hash = sha256(convert_to(${oldRefresh}, 'UTF8'))`;
      assert.ok(used!.gebruikt_op, "the old refresh token is used up");
      await client.close();
    });
  });
}

describe("protocol versions", () => {
  it("answers a 2025-era initialize for 2025-06-18 and for 2025-11-25 with that version", async () => {
    const email0 = await email(db.sql, w.members.lid);
    const provider = new TestClientProvider("Versies");
    const c = new ClientV1({ name: "v", version: "1" });
    const t = new TransportV1(new URL("/mcp", koers.baseUrl), { authProvider: provider as never });
    await assert.rejects(c.connect(t), UnauthorizedV1);
    await t.finishAuth((await browserSignIn(provider.authorizationUrl!, { email: email0 })).redirect.searchParams.get("code")!);
    for (const version of ["2025-06-18", "2025-11-25"]) {
      const r = await rawMcp(new URL("/mcp", koers.baseUrl), { method: "initialize", params: {
        protocolVersion: version, capabilities: {}, clientInfo: { name: "raw", version: "1" } } },
      { token: provider.accessToken, protocolVersion: version });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.result.protocolVersion, version);
      assert.equal(r.body.result.serverInfo.name, "koers");
      assert.match(r.body.result.instructions, /organisaties/);
    }
  });

  it("the consent page can be refused: the assistant is sent back with access_denied and gets no token", async () => {
    const provider = new TestClientProvider("Geweigerd");
    const c = new ClientV1({ name: "v", version: "1" });
    await assert.rejects(c.connect(new TransportV1(new URL("/mcp", koers.baseUrl), { authProvider: provider as never })), UnauthorizedV1);
    const { redirect, consent } = await browserSignIn(provider.authorizationUrl!, { email: await email(db.sql, w.members.lid) }, "weigeren");
    assert.equal(redirect.searchParams.get("error"), "access_denied");
    assert.equal(redirect.searchParams.get("code"), null);
    assert.ok(field(consent.html, "toestemming"));
    assert.equal((await db.sql`select count(*)::int as n from app_private.mcp_codes where client_id = ${provider.clientId}`)[0]!.n, 0);
  });
});
