// Where a webhook may point (SSRF): https and a host name, no IP literal in any notation, no
// user info, and no name that resolves to an address inside a private network, unless the
// deployment allows private addresses (tests). Refused when the webhook is made, and again at
// every delivery, where the name is resolved anew (a name that changed its answer is caught).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeWorld, testDatabase, type TestDb, type World } from "./helpers.ts";
import { forbiddenReason, checkWebhookUrl, AddressRefused } from "../src/webhooks/address.ts";
import {
  cliJson, koersCli, makeCertificate, startReceiver, startWorkerProcess, waitUntil,
  type Certificate, type Receiver, type WorkerProcess,
} from "./webhooks-support.ts";

let db: TestDb, w: World, certificate: Certificate, receiver: Receiver, worker: WorkerProcess;

before(async () => {
  db = await testDatabase();
  w = await makeWorld(db.sql);
  certificate = makeCertificate();
  receiver = await startReceiver(certificate);
});
after(async () => {
  await worker?.stop();
  await receiver?.close();
  certificate?.remove();
  await db?.drop();
});

const make = (url: string, env: NodeJS.ProcessEnv = {}) => koersCli(db.url,
  ["webhook", "maken", "--org", w.org, "--naam", "Poging", "--url", url, "--gebeurtenissen", "taak.klaar"], env);

describe("webhook addresses", () => {
  const refused: [string, string, RegExp][] = [
    ["http", "http://hooks.example.com/x", /moet https gebruiken/],
    ["an IPv4 literal", "https://127.0.0.1/x", /domeinnaam gebruiken, geen IP-adres \(127\.0\.0\.1\)/],
    ["an IPv6 literal", "https://[::1]/x", /geen IP-adres \(\[::1\]\)/],
    ["an IPv4-mapped IPv6 literal", "https://[::ffff:127.0.0.1]/x", /geen IP-adres/],
    ["a decimal IPv4", "https://2130706433/x", /geen IP-adres \(127\.0\.0\.1\)/],
    ["a hexadecimal IPv4", "https://0x7f.1/x", /geen IP-adres \(127\.0\.0\.1\)/],
    ["an octal IPv4", "https://0177.0.0.1/x", /geen IP-adres \(127\.0\.0\.1\)/],
    ["a shortened IPv4", "https://127.1/x", /geen IP-adres \(127\.0\.0\.1\)/],
    ["a public IPv4 literal", "https://93.184.216.34/x", /geen IP-adres/],
    ["user and password", "https://user:pw@hooks.example.com/x", /geen gebruikersnaam of wachtwoord/],
    ["a user name", "https://user@hooks.example.com/x", /geen gebruikersnaam of wachtwoord/],
    ["no URL at all", "hooks.example.com/x", /geen geldige URL/],
  ];
  for (const [label, url, message] of refused) {
    it(`refuses ${label} at creation (exit 1)`, async () => {
      const r = await make(url, { KOERS_WEBHOOK_PRIVATE: "aan" });
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stderr, message);
    });
  }

  // Names answered by the test-only resolver (KOERS_WEBHOOK_RESOLVE), and localhost by DNS.
  const resolve = ["intern.test=10.1.2.3", "metadata.test=169.254.169.254", "cgnat.test=100.64.0.7", "mapped.test=::ffff:127.0.0.1",
    "ula.test=fd12::1", "multicast.test=224.0.0.251", "gemengd.test=93.184.216.34", "gemengd.test=192.168.1.1",
    "nat64.test=64:ff9b::a00:1", "publiek.test=93.184.216.34"].join(",");
  const privateNames: [string, RegExp][] = [
    ["localhost", /localhost wijst naar 127\.0\.0\.1 \(loopback\)/],
    ["intern.test", /10\.1\.2\.3 \(privé\)/],
    ["metadata.test", /169\.254\.169\.254 \(link-local\)/],
    ["cgnat.test", /100\.64\.0\.7 \(CGNAT\)/],
    ["mapped.test", /::ffff:127\.0\.0\.1 \(loopback\)/],
    ["ula.test", /fd12::1 \(privé\)/],
    ["multicast.test", /224\.0\.0\.251 \(multicast\)/],
    ["gemengd.test", /192\.168\.1\.1 \(privé\)/],
    ["nat64.test", /64:ff9b::a00:1 \(privé\)/],
  ];
  for (const [name, message] of privateNames) {
    it(`refuses ${name}, which resolves to a private address, at creation`, async () => {
      const r = await make(`https://${name}:8443/x`, { KOERS_WEBHOOK_RESOLVE: resolve });
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stderr, /Adres niet toegestaan/);
      assert.match(r.stderr, message);
    });
  }

  it("refused addresses made no webhook; the database refuses them too, on every path", async () => {
    const [{ c }] = await db.sql`select count(*)::int as c from app_private.webhooks where org_id = ${w.org}` as unknown as [{ c: number }];
    assert.equal(c, 0);
    for (const url of ["http://x.example/", "https://127.0.0.1/", "https://[::1]/", "https://2130706433/", "https://0x7f.1/",
      "https://0177.0.0.1/", "https://a@x.example/", "https://x.example:99999/", "https://x.example /"]) {
      await assert.rejects(db.sql`select beheer.webhook_maken(${w.org}, null, 'X', ${url}, array['taak.klaar'], ${"s".repeat(40)})`,
        (e: { detail?: string; hint?: string }) => e.detail === "ongeldige_parameters" && e.hint === "url", url);
    }
  });

  it("judges every resolved address: private, loopback, link-local, CGNAT, multicast and reserved are refused", () => {
    const cases: [string, string | null][] = [
      ["8.8.8.8", null], ["93.184.216.34", null], ["100.63.255.255", null], ["100.128.0.0", null], ["2606:4700::1111", null],
      ["::ffff:8.8.8.8", null], ["64:ff9b::808:808", null],
      ["0.0.0.0", "niet routeerbaar"], ["10.0.0.1", "privé"], ["172.16.0.1", "privé"], ["172.31.255.255", "privé"],
      ["192.168.0.1", "privé"], ["127.0.0.1", "loopback"], ["127.255.255.254", "loopback"], ["169.254.169.254", "link-local"],
      ["100.64.0.0", "CGNAT"], ["100.127.255.255", "CGNAT"], ["224.0.0.1", "multicast"], ["239.255.255.250", "multicast"],
      ["240.0.0.1", "gereserveerd"], ["255.255.255.255", "gereserveerd"], ["192.0.2.1", "gereserveerd (documentatie)"],
      ["198.18.0.1", "gereserveerd (benchmark)"], ["::", "niet gespecificeerd"], ["::1", "loopback"],
      ["::ffff:127.0.0.1", "loopback"], ["::ffff:10.0.0.1", "privé"], ["::ffff:169.254.169.254", "link-local"],
      ["64:ff9b::7f00:1", "loopback"], ["fe80::1", "link-local"], ["fe80::1%eth0", "link-local"], ["fc00::1", "privé"],
      ["fd00::1", "privé"], ["ff02::1", "multicast"], ["2001:db8::1", "gereserveerd (documentatie)"],
      ["2002:7f00:1::1", "gereserveerd (6to4)"], ["2001::1", "gereserveerd"], ["::127.0.0.1", "gereserveerd (IPv4-compatibel)"],
      ["100::1", "gereserveerd"], ["fec0::1", "gereserveerd (site-local)"], ["4000::1", "gereserveerd"],
    ];
    for (const [address, reason] of cases) assert.equal(forbiddenReason(address), reason, address);
    assert.equal(checkWebhookUrl("https://Hooks.Example.com:8443/a?b=c#d").href, "https://hooks.example.com:8443/a?b=c");
    assert.throws(() => checkWebhookUrl("https://0x7f000001/"), AddressRefused);
  });

  it("at delivery, a name that now resolves to a private address is refused and nothing is connected", async () => {
    // Made while rebind.test pointed at a public address...
    const hook = await cliJson(db.url, ["webhook", "maken", "--org", w.org, "--naam", "Rebind",
      "--url", `https://rebind.test:${receiver.port}/x`, "--gebeurtenissen", "taak.klaar"], { KOERS_WEBHOOK_RESOLVE: "rebind.test=93.184.216.34" });
    // ...and localhost, allowed only where private addresses are.
    const local = await cliJson(db.url, ["webhook", "maken", "--org", w.org, "--naam", "Lokaal",
      "--url", receiver.url("/x"), "--gebeurtenissen", "taak.klaar"], { KOERS_WEBHOOK_PRIVATE: "aan" });
    // The worker allows no private address, and rebind.test now answers with the receiver's.
    worker = await startWorkerProcess(db.url, certificate, { KOERS_WEBHOOK_PRIVATE: "", KOERS_WEBHOOK_RESOLVE: "rebind.test=127.0.0.1" });
    await db.sql`insert into app.taken (org_id, omschrijving, stand) values (${w.org}, 'Klaar', 'open')`;
    await db.sql`update app.taken set stand = 'voltooid' where org_id = ${w.org}`;
    await waitUntil(async () => (await db.sql`select 1 from app_private.webhook_afleveringen where org_id = ${w.org}
      and werker_slot is null and fout is not null`).length === 2, 15_000, "both deliveries refused");
    const rows = await db.sql`select w.naam, a.status_code, a.fout from app_private.webhook_afleveringen a
      join app_private.webhook_berichten b on b.org_id = a.org_id and b.id = a.bericht_id
      join app_private.webhooks w on w.org_id = b.org_id and w.id = b.webhook_id where a.org_id = ${w.org} order by w.naam`;
    assert.deepEqual(rows.map((r) => [r.naam, r.status_code, r.fout]), [
      ["Lokaal", null, "Adres niet toegestaan: localhost wijst naar 127.0.0.1 (loopback)."],
      ["Rebind", null, "Adres niet toegestaan: rebind.test wijst naar 127.0.0.1 (loopback)."],
    ]);
    assert.equal(receiver.connections(), 0, "no connection reached the receiver");
    const hooks = await db.sql`select id, opeenvolgende_fouten from app_private.webhooks where id in (${hook.id}, ${local.id}) order by naam`;
    assert.deepEqual(hooks.map((h) => h.opeenvolgende_fouten), [1, 1], "a refused address is a failed delivery");
  });
});
