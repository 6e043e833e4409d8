// zoeken over HTTP: text inside real PDF, Word and Excel files (made here, stored with the
// CLI, read by the worker job), Dutch stemming and accents, private projects, one refusal of
// each kind; and the CLI commands that add comments and attachments.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runOnce } from "graphile-worker";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { Document, Packer, Paragraph } from "docx";
import ExcelJS from "exceljs";
import { refusalTests, request, setupWorld, type TestSetup } from "./helpers.ts";
import { runKoers, type Finished } from "./processes.ts";
import { pool, startWorker, taskList } from "../src/worker.ts";
import { connect } from "../src/db/connection.ts";
import { ensureDoorRole } from "../src/db/migrate.ts";

const files = fs.mkdtempSync(path.join(os.tmpdir(), "koers-zoeken-"));
after(() => fs.rmSync(files, { recursive: true, force: true }));

async function makePdf(pages: string[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const text of pages) pdf.addPage().drawText(text, { x: 50, y: 700, font, size: 12 });
  return pdf.save();
}

async function makeDocx(paragraphs: string[]): Promise<Buffer> {
  return Packer.toBuffer(new Document({ sections: [{ children: paragraphs.map((p) => new Paragraph(p)) }] }));
}

async function makeXlsx(sheet: string, rows: (string | number)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const ws = workbook.addWorksheet(sheet);
  for (const row of rows) ws.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

function koersCli(o: TestSetup, args: string[]): Promise<Finished> {
  return runKoers(args, { DATABASE_URL: o.db.url, KOERS_NOW: NOW });
}

/** Runs the worker until no job is left: the extraction jobs the attachments queued. */
async function runWorker(o: TestSetup) {
  await runOnce({ connectionString: o.db.url, taskList: taskList({ now: NOW, concurrency: 1,
    retention: { logDays: 400, anonymousDays: 30, auditDays: 400 } }) });
}

const NOW = "2026-05-14T10:00:00+02:00";
let privateTask = 0;

const o = setupWorld({
  now: NOW,
  afterSetup: async (s) => {
    const { db, w } = s;
    const e = w.members.eigenaar.user_id;
    // Task 1: loose; task 2: in a private project only the owner works on.
    await db.sql.begin(async (tx) => {
      await tx`select set_config('koers.nu', ${NOW}, true), app_hidden.handelen_namens(${w.org}, ${e}, 'app', 'test')`;
      await tx`insert into app.taken (org_id, omschrijving, aangemaakt_door) values (${w.org}, 'Menu voor het zomerfeest', ${e})`;
      const [p] = await tx`insert into app.projecten (org_id, titel, eigenaar_user_id, startdatum, besloten, aangemaakt_door)
                           values (${w.org}, 'Overname', ${e}, '2026-01-01', true, ${e}) returning id`;
      const [t] = await tx`insert into app.taken (org_id, omschrijving, project_id, eigenaar_user_id, aangemaakt_door)
                           values (${w.org}, 'Due diligence', ${p!.id}, ${e}, ${e}) returning nummer`;
      privateTask = t!.nummer;
    });
  },
});

const search = (key: string, query: Record<string, string>) =>
  request(o.baseUrl, "GET", "/api/v1/zoeken", { apiKey: key, query: { org_id: o.w.org, ...query } });

describe("zoeken: files, words and who finds what", () => {
  it("koers bijlage toevoegen stores real PDF, Word and Excel files; the worker reads their text", async () => {
    const put = async (name: string, content: Uint8Array | Buffer, task = 1, who = "eigenaar") => {
      fs.writeFileSync(path.join(files, name), content);
      const r = await koersCli(o, ["bijlage", "toevoegen", "--org", o.w.org, "--taak", String(task), "--user",
        o.w.members[who as "eigenaar"].user_id, "--bestand", path.join(files, name), "--json"]);
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout);
    };
    const pdf = await put("afspraken.pdf", await makePdf(["Inleiding", "De taken voor het café en de leveringsvoorwaarden"]));
    assert.deepEqual([pdf.naam, pdf.mimetype, pdf.tekst_status, pdf.taak.nummer], ["afspraken.pdf", "application/pdf", "wacht", 1]);
    await put("notulen.docx", await makeDocx(["Notulen van het overleg", "Het dessert wordt crème brûlée"]));
    await put("omzet.xlsx", await makeXlsx("Omzet", [["Klant", "Bedrag"], ["Brasserie Noir", 1200]]));
    await put("kapot.pdf", Buffer.from("%PDF-1.7 dit is geen pdf"));
    await put("foto.png", Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    await put("geheim.txt", Buffer.from("Het bod op de overname"), privateTask);
    const [jobs] = await o.db.sql`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'extract_attachment_text'`;
    assert.equal(jobs!.n, 6, "one job per stored file, queued with it");
    await runWorker(o);
    const statuses = await o.db.sql`select naam, tekst_status, tekst_fout is not null as fout from app.bijlagen
                                    where org_id = ${o.w.org} and bytes is not null order by naam`;
    assert.deepEqual(statuses.map((r) => `${r.naam} ${r.tekst_status}${r.fout ? " (reason)" : ""}`), [
      "afspraken.pdf gelezen", "foto.png niet_ondersteund (reason)", "geheim.txt gelezen",
      "kapot.pdf onleesbaar (reason)", "notulen.docx gelezen", "omzet.xlsx gelezen"],
      "a file that cannot be read is recorded as such, and the worker goes on");
    const [rest] = await o.db.sql`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'extract_attachment_text'`;
    assert.equal(rest!.n, 0, "no job is left to retry");
  });

  it("finds text inside the PDF, with Dutch stemming (taak finds taken) and without accents (cafe finds café)", async () => {
    for (const word of ["taak", "cafe", "CAFÉ"]) {
      const r = await search(o.w.members.lid.apiKey, { tekst: word, soorten: "bijlage" });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body.resultaten.map((h: any) => [h.titel, h.waar, h.plek]), [["afspraken.pdf", "tekst", "pagina 2"]], word);
    }
    const r = await search(o.w.members.lid.apiKey, { tekst: "cafe", soorten: "bijlage" });
    assert.match(r.body.resultaten[0].fragment, /\*\*café\*\*/);
    assert.deepEqual(r.body.resultaten[0].hoort_bij, { soort: "taak", id: r.body.resultaten[0].hoort_bij.id, nummer: 1,
      titel: "Menu voor het zomerfeest" });
  });

  it("finds text inside the Word file and the Excel sheet", async () => {
    const word = await search(o.w.members.lid.apiKey, { tekst: "creme brulee" });
    assert.deepEqual(word.body.resultaten.map((h: any) => h.titel), ["notulen.docx"]);
    assert.match(word.body.resultaten[0].fragment, /Het dessert wordt \*\*crème\*\* \*\*brûlée\*\*$/);
    const excel = await search(o.w.members.lid.apiKey, { tekst: "brasserie noir" });
    assert.deepEqual(excel.body.resultaten.map((h: any) => [h.titel, h.plek]), [["omzet.xlsx", "blad Omzet"]]);
  });

  it("an attachment of a private project's task only for who works on it", async () => {
    const lid = await search(o.w.members.lid.apiKey, { tekst: "overname" });
    assert.deepEqual(lid.body, { resultaten: [], afgekapt: false });
    const owner = await search(o.w.members.eigenaar.apiKey, { tekst: "overname" });
    assert.deepEqual(owner.body.resultaten.map((h: any) => `${h.soort}:${h.titel}`).sort(),
      ["bijlage:geheim.txt", "project:Overname"]);
    const number = await search(o.w.members.lid.apiKey, { tekst: `#${privateTask}` });
    assert.deepEqual(number.body.resultaten, [], "nor its task by number");
  });

  it("reading a file again (a job run twice, as after a crash) gives the same parts", async () => {
    const before = await o.db.sql`select bijlage_id, nr, plek, tekst from app.bijlage_delen where org_id = ${o.w.org} order by 1, 2`;
    await o.db.sql`select graphile_worker.add_job('extract_attachment_text', json_build_object('org_id', org_id, 'bijlage_id', id))
                   from app.bijlagen where org_id = ${o.w.org} and bytes is not null`;
    await runWorker(o);
    const again = await o.db.sql`select bijlage_id, nr, plek, tekst from app.bijlage_delen where org_id = ${o.w.org} order by 1, 2`;
    assert.deepEqual(again, before);
  });

  it("a job whose worker died (kill -9) mid-read runs again when a worker starts, and the file's text is found", async () => {
    fs.writeFileSync(path.join(files, "kraak.txt"), "Het rooster van de kraakwacht");
    const r = await koersCli(o, ["bijlage", "toevoegen", "--org", o.w.org, "--taak", "1", "--user", o.w.members.eigenaar.user_id,
      "--bestand", path.join(files, "kraak.txt"), "--json"]);
    assert.equal(r.code, 0, r.stderr);
    // What a worker process leaves when it dies holding the job: the job locked by its pool,
    // the pool registered under a liveness slot nobody holds any more.
    await o.db.sql`insert into app_private.werkers (pool, slot) values ('dode-pool', 424242)`;
    await o.db.sql`update graphile_worker._private_jobs j set locked_by = 'dode-pool', locked_at = now()
                   from graphile_worker._private_tasks t where t.id = j.task_id and t.identifier = 'extract_attachment_text'`;
    const runner = await startWorker(o.db.url, { now: NOW, concurrency: 1, retention: { logDays: 400, anonymousDays: 30, auditDays: 400 } });
    try {
      for (let i = 0; i < 300; i++) {
        const [b] = await o.db.sql`select tekst_status from app.bijlagen where org_id = ${o.w.org} and naam = 'kraak.txt'`;
        if (b!.tekst_status === "gelezen") break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await runner.stop();
    }
    const found = await search(o.w.members.lid.apiKey, { tekst: "kraakwacht" });
    assert.deepEqual(found.body.resultaten.map((h: any) => h.titel), ["kraak.txt"]);
  });

  it("koers opmerking plaatsen: the comment is found; the call log names the person", async () => {
    const r = await koersCli(o, ["opmerking", "plaatsen", "--org", o.w.org, "--taak", "1", "--user", o.w.members.mt.user_id,
      "--tekst", "De leverancier levert vrijdag", "--json"]);
    assert.equal(r.code, 0, r.stderr);
    const placed = JSON.parse(r.stdout);
    assert.deepEqual([placed.tekst, placed.taak.nummer, placed.door.user_id], ["De leverancier levert vrijdag", 1, o.w.members.mt.user_id]);
    const found = await search(o.w.members.lid.apiKey, { tekst: "leveranciers", soorten: "opmerking" });
    assert.deepEqual(found.body.resultaten.map((h: any) => [h.soort, h.nummer, h.fragment]),
      [["opmerking", 1, "De **leverancier** levert vrijdag"]]);
    const [log] = await o.db.sql`select door, user_id from app_private.aanroepen where org_id = ${o.w.org}
                                 and operatie = 'opmerking_plaatsen'`;
    assert.deepEqual([log!.door, log!.user_id], ["app", o.w.members.mt.user_id]);
  });

  it("the CLI refuses bad arguments (exit 2) and what the database refuses (exit 1)", async () => {
    const missing = await koersCli(o, ["opmerking", "plaatsen", "--org", o.w.org, "--taak", "1", "--user", o.w.members.mt.user_id]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--tekst is required/);
    const noFile = await koersCli(o, ["bijlage", "toevoegen", "--org", o.w.org, "--taak", "1", "--user", o.w.members.mt.user_id,
      "--bestand", path.join(files, "bestaat-niet.pdf")]);
    assert.equal(noFile.code, 2);
    const unknownTask = await koersCli(o, ["opmerking", "plaatsen", "--org", o.w.org, "--taak", "999", "--user", o.w.members.mt.user_id,
      "--tekst", "Hallo"]);
    assert.equal(unknownTask.code, 1);
    assert.match(unknownTask.stderr, /Taak #999 bestaat niet/);
    const big = path.join(files, "groot.pdf");
    fs.writeFileSync(big, Buffer.alloc(10 * 1024 * 1024 + 1));
    const tooBig = await koersCli(o, ["bijlage", "toevoegen", "--org", o.w.org, "--taak", "1", "--user", o.w.members.mt.user_id,
      "--bestand", big]);
    assert.equal(tooBig.code, 1);
    assert.match(tooBig.stderr, /hoogstens 10 MiB/);
  });

  it("the doors' connections compile no statement with JIT (a search of 100,000 tasks spent 6.5 s compiling its hits' render)", async () => {
    const door = connect(await ensureDoorRole(o.db.url), { now: null, name: "koers-test-jit", max: 1 });
    try {
      const [r] = await door`select current_setting('jit') as jit, current_user as wie`;
      assert.notEqual(r!.wie, "postgres", "the door's own login role");
      assert.equal(r!.jit, "off");
    } finally {
      await door.end();
    }
  });

  it("the workers' connections compile no statement with JIT either, and keep the test clock", async () => {
    const workers = pool(o.db.url, 1, "2026-03-04 10:00:00+00", () => {}, () => false);
    try {
      const { rows: [r] } = await workers.query("select current_setting('jit') as jit, current_setting('koers.nu') as nu");
      assert.deepEqual(r, { jit: "off", nu: "2026-03-04 10:00:00+00" });
    } finally {
      await workers.end();
    }
  });

  it("without text: the newest hits of the chosen kinds; tekst is required otherwise", async () => {
    const r = await search(o.w.members.lid.apiKey, { soorten: "taak,opmerking" });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.resultaten.map((h: any) => h.soort).sort(), ["opmerking", "taak"]);
    const none = await search(o.w.members.lid.apiKey, {});
    assert.equal(none.status, 400);
    assert.equal(none.body.fout.parameter, "tekst");
  });
});

describe("zoeken: refusals", () => {
  refusalTests(() => o, { operation: "zoeken", input: () => ({ tekst: "menu" }), invalid: [{ soorten: "taak,iets" }, "soorten"] });
});
