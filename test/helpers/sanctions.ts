/**
 * Helpers of the sanctions service tests: importing the real samples into a test
 * service, and screening through HTTP in calls of at most 50 ids.
 */
import { importSanctions, importSanctionsFiles, type SanctionsImportOptions } from "../../src/adapters/importers/sanctions-import.ts";
import type { SanctionsImportResult } from "../../src/interfaces/sanctions.ts";
import { fixturePath, reassembleUkCsv } from "./sanctions-fixtures.ts";
import { get, type TestService } from "./service.ts";

export { fixture, fixturePath, ofacChanges, ofacCsvBefore, reassembleUkCsv } from "./sanctions-fixtures.ts";

export const OFAC_2024_05_03 = fixturePath("ofac", "sdn_csv_vessel_rows_2024-05-03.csv");
export const EU_CONSOLIDATED = fixturePath("eu", "annex_xlii_vessels_consolidated_02014R0833-20260717.csv");
export const EU_AMENDMENT = fixturePath("eu", "annex_xlii_vessels_amendment_32026R1848.csv");
/** AVAX (IMO 9058713), added to Annex V of Reg. (EU) 2016/44 (Libya) by Implementing Reg. 2026/1941 under two measures. */
export const EU_LIBYA_AVAX = fixturePath("eu", "libya_annex_v_amendment_32026R1941.csv");
export const CANADA_PRE = fixturePath("canada", "sema-lmes_pre-2026-08-25_tags_excerpt.xml");
export const CANADA_POST = fixturePath("canada", "sema-lmes_post-2026-08-25_bilingual_tags_excerpt.xml");
export const UK_XML = fixturePath("uk", "uk_sanctions_list_xml_ship_fragments.xml");
export const NZ_XLSX = fixturePath("nz", "russia-sanctions-register-ships-test.xlsx");

export function importFile(t: TestService, list: string, paths: string[], options: SanctionsImportOptions = {}): Promise<SanctionsImportResult> {
  return importSanctions(t.service.services, list, paths, options);
}

export function importBytes(t: TestService, list: string, name: string, bytes: Buffer | string, options: SanctionsImportOptions = {}): Promise<SanctionsImportResult> {
  return importSanctionsFiles(t.service.services, list, [{ name, bytes: Buffer.from(bytes) }], name, options);
}

/** The UK ships of the 29-Apr-2026 list in the official CSV layout (see the importers' helpers). */
export function importUkCsv(t: TestService, options: SanctionsImportOptions = {}): Promise<SanctionsImportResult> {
  return importBytes(t, "uk", "UK-Sanctions-List.csv", reassembleUkCsv(), options);
}

/** Screens any number of ids through GET /api/v1/screen, 50 per call; results in id order. */
export async function screenAll(t: TestService, key: string, ids: string[], lists?: string): Promise<any[]> {
  const out: any[] = [];
  for (let i = 0; i < ids.length; i += 50) {
    const chunk = ids.slice(i, i + 50);
    const r = await get(t, `/api/v1/screen?ids=${chunk.join(",")}${lists ? `&lists=${lists}` : ""}`, key);
    if (r.status !== 200) throw new Error(`screen answered ${r.status}: ${JSON.stringify(r.body)}`);
    out.push(...r.body.data);
  }
  return out;
}

/** Row counts of every sanctions table, to show a refused import changed nothing. */
export async function tableCounts(t: TestService): Promise<Record<string, number>> {
  const db = t.service.store.db;
  const tables = ["sanctions_lists", "sanctions_versions", "sanctions_designations", "sanctions_identifiers", "sanctions_changes", "sanctions_events"] as const;
  const out: Record<string, number> = {};
  for (const table of tables) {
    const r = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    out[table] = Number(r.n);
  }
  const active = await db
    .selectFrom("sanctions_designations")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("active", "=", 1)
    .executeTakeFirstOrThrow();
  out.active = Number(active.n);
  return out;
}
