// The text of an attachment's file, for search: PDF (unpdf, which bundles Mozilla's PDF.js),
// Word .docx (mammoth), Excel .xlsx (exceljs) and plain text. The text comes back in parts of
// at most PART_CHARACTERS, each with its place in the file (a page, a sheet), so a search
// snippet is cut from one part and can say where the match is.
import { extractText as pdfText, getDocumentProxy } from "unpdf";
import mammoth from "mammoth";
import ExcelJS from "exceljs";

export interface Part { plek: string | null; tekst: string }

export type Extraction =
  | { status: "gelezen"; parts: Part[] }
  | { status: "niet_ondersteund"; reason: string };

/** A file whose text cannot be read; its message is stored with the attachment. */
export class UnreadableFile extends Error {}

export const PART_CHARACTERS = 3000;
/** Text beyond this is not indexed (a book's worth). */
export const MAX_CHARACTERS = 1_000_000;
/** .docx and .xlsx are zip files: more than this unpacked is refused (a zip bomb). */
export const MAX_UNPACKED_BYTES = 100 * 1024 * 1024;

type Kind = "pdf" | "docx" | "xlsx" | "text";

function kindOf(bytes: Uint8Array, name: string, mimetype: string | null): Kind | null {
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  const isZip = bytes[0] === 0x50 && bytes[1] === 0x4b;
  if (extension === "pdf" || mimetype === "application/pdf") return "pdf";
  if (extension === "docx" || mimetype === "application/vnd.openxmlformats-officedocument.wordprocessingml.document") {
    return "docx";
  }
  if (extension === "xlsx" || mimetype === "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet") {
    return "xlsx";
  }
  if (["txt", "md", "csv", "tsv"].includes(extension ?? "") || (mimetype?.startsWith("text/") && !isZip)) return "text";
  return null;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text as PostgreSQL can hold it: no NUL, no lone surrogates, runs of blanks as one. */
function clean(text: string): string {
  return text.replaceAll("\u0000", " ").replace(LONE_SURROGATE, "\ufffd").replace(/[ \t\r\v\f\u00a0]+/g, " ").trim();
}

/** Splits text between words into parts of at most PART_CHARACTERS, all with one place. */
function split(text: string, plek: string | null): Part[] {
  const parts: Part[] = [];
  let rest = clean(text);
  while (rest.length > PART_CHARACTERS) {
    let cut = rest.lastIndexOf(" ", PART_CHARACTERS);
    if (cut < PART_CHARACTERS / 2) cut = PART_CHARACTERS;
    parts.push({ plek, tekst: rest.slice(0, cut).trim() });
    rest = rest.slice(cut).trim();
  }
  if (rest) parts.push({ plek, tekst: rest });
  return parts;
}

/** Groups lines (paragraphs, rows) into parts of at most PART_CHARACTERS. */
function group(lines: string[], plek: string | null): Part[] {
  const parts: Part[] = [];
  let current = "";
  for (const line of lines.map(clean).filter((l) => l !== "")) {
    if (current && current.length + 1 + line.length > PART_CHARACTERS) {
      parts.push(...split(current, plek));
      current = "";
    }
    current = current ? `${current}\n${line}` : line;
  }
  if (current) parts.push(...split(current, plek));
  return parts;
}

/** The sum of the unpacked sizes in a zip's central directory; refuses what it cannot read. */
export function unpackedZipBytes(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65535); i--) {
    if (view.getUint32(i, true) === 0x06054b50) { end = i; break; }
  }
  if (end < 0) throw new UnreadableFile("geen geldig zip-bestand (.docx en .xlsx zijn zip-bestanden)");
  const entries = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) {
      throw new UnreadableFile("beschadigd zip-bestand");
    }
    const size = view.getUint32(at + 24, true);
    if (size === 0xffffffff) throw new UnreadableFile("zip64-bestanden worden niet gelezen");
    total += size;
    at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return total;
}

function guardZip(bytes: Uint8Array) {
  const unpacked = unpackedZipBytes(bytes);
  if (unpacked > MAX_UNPACKED_BYTES) {
    throw new UnreadableFile(`uitgepakt te groot (${Math.round(unpacked / 1048576)} MiB; hoogstens ${MAX_UNPACKED_BYTES / 1048576} MiB)`);
  }
}

function cellText(cell: ExcelJS.Cell): string {
  try {
    return cell.text ?? "";
  } catch {
    return String(cell.value ?? "");
  }
}

/** Keeps parts up to MAX_CHARACTERS in all. */
function capped(parts: Part[]): Part[] {
  const kept: Part[] = [];
  let total = 0;
  for (const p of parts) {
    if (total + p.tekst.length > MAX_CHARACTERS) break;
    kept.push(p);
    total += p.tekst.length;
  }
  return kept;
}

export async function extract(bytes: Uint8Array, name: string, mimetype: string | null): Promise<Extraction> {
  const kind = kindOf(bytes, name, mimetype);
  if (!kind) return { status: "niet_ondersteund", reason: `geen tekst uit dit soort bestand (${mimetype ?? name})` };
  try {
    switch (kind) {
      case "pdf": {
        const pdf = await getDocumentProxy(new Uint8Array(bytes));
        const { text } = await pdfText(pdf, { mergePages: false });
        return { status: "gelezen", parts: capped(text.flatMap((page, i) => split(page, `pagina ${i + 1}`))) };
      }
      case "docx": {
        guardZip(bytes);
        const { value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes) });
        return { status: "gelezen", parts: capped(group(value.split(/\n+/), null)) };
      }
      case "xlsx": {
        guardZip(bytes);
        const workbook = new ExcelJS.Workbook();
        await workbook.xlsx.load(Buffer.from(bytes) as unknown as ArrayBuffer);
        const parts: Part[] = [];
        workbook.eachSheet((sheet) => {
          const rows: string[] = [];
          sheet.eachRow((row) => {
            const cells: string[] = [];
            row.eachCell((cell) => { const t = cellText(cell); if (t.trim()) cells.push(t); });
            rows.push(cells.join(" | "));
          });
          parts.push(...group(rows, `blad ${sheet.name}`));
        });
        return { status: "gelezen", parts: capped(parts) };
      }
      case "text":
        return { status: "gelezen", parts: capped(group(new TextDecoder("utf-8").decode(bytes).split(/\n/), null)) };
    }
  } catch (e) {
    if (e instanceof UnreadableFile) throw e;
    throw new UnreadableFile(`${kind}: ${(e as Error).message ?? String(e)}`.slice(0, 500));
  }
}
