import type { Kysely } from "kysely";
import type { CompanyDesignation, CompanyRecord, FleetRole } from "../../../domain/companies/company.ts";
import { type EntityRef, strongestId } from "../../../domain/companies/entity-id.ts";
import { COMPANY_TERM_LENGTH, companyNameTerms } from "../../../domain/companies/name-terms.ts";
import { normalizeName } from "../../../domain/vessels/names.ts";
import type { CompanyNameMatch, CompanyStore, VesselCompany } from "../../../interfaces/companies.ts";
import { chunks, inBatches } from "../batches.ts";
import { MAX_CHAR } from "./search-store.ts";
import type { CompanyFleetTable, CompanyRecordsTable, Database } from "../schema.ts";

/** Rows per INSERT: 8 columns, well under SQLite's bound-variable limit. */
const BATCH = 500;
/** A company joined over more rounds than this is cut there: each round is one query. */
const MAX_JOIN_ROUNDS = 6;

type RecordFacts = Pick<CompanyRecord, "aliases" | "country" | "address" | "designations">;

function toRow(r: CompanyRecord): CompanyRecordsTable {
  const facts: RecordFacts = { aliases: r.aliases, country: r.country, address: r.address, designations: r.designations };
  return { source: r.source, key: r.key, entity_id: r.entityId, name: r.name, norm: normalizeName(r.name), company_imo: r.companyImo, lei: r.lei, record: JSON.stringify(facts) };
}

function fromRow(r: CompanyRecordsTable, fleet: CompanyFleetTable[]): CompanyRecord {
  const facts = JSON.parse(r.record) as RecordFacts;
  return {
    source: r.source,
    key: r.key,
    entityId: r.entity_id,
    name: r.name,
    companyImo: r.company_imo,
    lei: r.lei,
    aliases: facts.aliases,
    country: facts.country,
    address: facts.address,
    designations: facts.designations as CompanyDesignation[],
    fleet: fleet.map((f) => ({ imo: f.imo === null ? null : Number(f.imo), mmsi: f.mmsi === null ? null : Number(f.mmsi), vesselName: f.vessel_name, role: f.role as FleetRole, evidence: f.evidence })),
  };
}

export class SqlCompanyStore implements CompanyStore {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async replaceSource(source: string, records: readonly CompanyRecord[]): Promise<void> {
    await this.#db.transaction().execute(async (tx) => {
      await tx.deleteFrom("company_fleet").where("source", "=", source).execute();
      await tx.deleteFrom("company_name_terms").where("source", "=", source).execute();
      await tx.deleteFrom("company_records").where("source", "=", source).execute();
      await inBatches(records.map(toRow), BATCH, (batch) => tx.insertInto("company_records").values(batch).execute());
      const fleet: CompanyFleetTable[] = records.flatMap((r) =>
        r.fleet.map((f) => ({ source, key: r.key, imo: f.imo, mmsi: f.mmsi, vessel_name: f.vesselName, role: f.role, evidence: f.evidence })),
      );
      await inBatches(fleet, BATCH, (batch) => tx.insertInto("company_fleet").values(batch).execute());
      const terms = records.flatMap((r) => companyNameTerms([r.name, ...r.aliases]).map((t) => ({ term: t.term, rank: t.rank, source, key: r.key })));
      await inBatches(terms, BATCH, (batch) => tx.insertInto("company_name_terms").values(batch).execute());
    });
  }

  async resolve(ref: EntityRef): Promise<CompanyRecord[]> {
    const base = this.#db.selectFrom("company_records").selectAll();
    let found =
      ref.kind === "imo"
        ? await base.where("company_imo", "=", ref.value).execute()
        : ref.kind === "lei"
          ? await base.where("lei", "=", ref.value).execute()
          : await base.where("entity_id", "=", ref.value).execute();
    // Records join on a shared company IMO number or LEI; follow them until no new one turns up.
    const imos = new Set<string>();
    const leis = new Set<string>();
    for (let round = 0; round < MAX_JOIN_ROUNDS; round++) {
      const newImos = [...new Set(found.map((r) => r.company_imo).filter((v): v is string => v !== null && !imos.has(v)))];
      const newLeis = [...new Set(found.map((r) => r.lei).filter((v): v is string => v !== null && !leis.has(v)))];
      if (newImos.length + newLeis.length === 0) break;
      newImos.forEach((v) => imos.add(v));
      newLeis.forEach((v) => leis.add(v));
      const more = await this.#db
        .selectFrom("company_records")
        .selectAll()
        .where((eb) => eb.or([...(newImos.length ? [eb("company_imo", "in", newImos)] : []), ...(newLeis.length ? [eb("lei", "in", newLeis)] : [])]))
        .execute();
      const seen = new Set(found.map((r) => `${r.source}\u0000${r.key}`));
      found = [...found, ...more.filter((r) => !seen.has(`${r.source}\u0000${r.key}`))];
    }
    if (found.length === 0) return [];
    const fleet: CompanyFleetTable[] = [];
    for (const r of found) fleet.push(...(await this.#db.selectFrom("company_fleet").selectAll().where("source", "=", r.source).where("key", "=", r.key).execute()));
    return found
      .sort((a, b) => (a.source === b.source ? (a.key < b.key ? -1 : 1) : a.source < b.source ? -1 : 1))
      .map((r) => fromRow(r, fleet.filter((f) => f.source === r.source && f.key === r.key)));
  }

  async forVessel(imo: number | null, mmsis: readonly number[]): Promise<VesselCompany[]> {
    if (imo === null && mmsis.length === 0) return [];
    const links = await this.#db
      .selectFrom("company_fleet as f")
      .innerJoin("company_records as r", (j) => j.onRef("r.source", "=", "f.source").onRef("r.key", "=", "f.key"))
      .select(["f.source", "f.imo", "f.mmsi", "f.vessel_name", "f.role", "f.evidence", "r.entity_id", "r.name", "r.company_imo", "r.lei"])
      .where((eb) => eb.or([...(imo !== null ? [eb("f.imo", "=", imo)] : []), ...chunks(mmsis).map((c) => eb("f.mmsi", "in", c))]))
      .orderBy("f.source")
      .orderBy("r.name")
      .execute();
    return links.map((l) => ({
      source: l.source,
      entityId: strongestId({ companyImo: l.company_imo, lei: l.lei, entityId: l.entity_id }),
      name: l.name,
      link: { imo: l.imo === null ? null : Number(l.imo), mmsi: l.mmsi === null ? null : Number(l.mmsi), vesselName: l.vessel_name, role: l.role as FleetRole, evidence: l.evidence },
    }));
  }

  async searchNames(normalized: string, limit: number): Promise<CompanyNameMatch[]> {
    // Every name or other name starting with the query, or with a later word that does: each
    // rank is one range read of the (rank, term) index in term order. Terms are cut, so a
    // longer query is checked on the whole name.
    const prefix = normalized.slice(0, COMPANY_TERM_LENGTH);
    const read = (rank: 0 | 1) =>
      this.#db
        .selectFrom("company_name_terms as t")
        .innerJoin("company_records as r", (j) => j.onRef("r.source", "=", "t.source").onRef("r.key", "=", "t.key"))
        .select(["t.rank", "t.term", "r.entity_id", "r.name", "r.norm", "r.source", "r.company_imo", "r.lei", "r.record"])
        .where("t.rank", "=", rank)
        .where("t.term", ">=", prefix)
        .where("t.term", "<", prefix + MAX_CHAR)
        .orderBy("t.term")
        .limit(limit * 4)
        .execute();
    const rows = [...(await read(0)), ...(await read(1))];
    const matches: CompanyNameMatch[] = [];
    for (const r of rows) {
      const names = [r.norm, ...(JSON.parse(r.record) as RecordFacts).aliases.map(normalizeName)];
      const tier = names.includes(normalized) ? 1 : names.some((n) => n.startsWith(normalized)) ? 2 : names.some((n) => n.includes(` ${normalized}`)) ? 3 : null;
      if (tier === null) continue;
      matches.push({ entityId: strongestId({ companyImo: r.company_imo, lei: r.lei, entityId: r.entity_id }), name: r.name, source: r.source, tier });
    }
    matches.sort((a, b) => a.tier - b.tier || a.name.localeCompare(b.name));
    const seen = new Set<string>();
    return matches.filter((m) => !seen.has(m.entityId) && seen.add(m.entityId)).slice(0, limit);
  }

  async counts(): Promise<Record<string, number>> {
    const rows = await this.#db.selectFrom("company_records").select(["source", (eb) => eb.fn.countAll<number>().as("n")]).groupBy("source").execute();
    return Object.fromEntries(rows.map((r) => [r.source, Number(r.n)]));
  }

  async designatedCounts(): Promise<Record<string, number>> {
    // `record` is written by JSON.stringify (toRow), which writes an empty list exactly so.
    const rows = await this.#db
      .selectFrom("company_records")
      .select(["source", (eb) => eb.fn.countAll<number>().as("n")])
      .where("record", "not like", '%"designations":[]%')
      .groupBy("source")
      .execute();
    return Object.fromEntries(rows.map((r) => [r.source, Number(r.n)]));
  }
}
