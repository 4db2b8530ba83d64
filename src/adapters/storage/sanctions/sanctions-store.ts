import type { Kysely, Selectable } from "kysely";
import { type Designation, readStoredDesignation, SANCTIONS_LISTS, type SanctionsListKey } from "../../../domain/sanctions/designation.ts";
import type {
  FindByIdentifiers,
  IdentifierHit,
  SanctionsChange,
  SanctionsEvent,
  SanctionsFeedQuery,
  SanctionsFeedRow,
  SanctionsFetchAttempt,
  SanctionsFetchOutcome,
  SanctionsFetchState,
  SanctionsImportResult,
  SanctionsListState,
  SanctionsStore,
  SanctionsVersionInput,
  SanctionsVersionRow,
  ListedVesselFacts,
  StoredDesignation,
} from "../../../interfaces/sanctions.ts";
import { DEFAULT_STALE_AFTER_DAYS } from "../../../domain/sanctions/coverage.ts";
import { importSanctionsVersion } from "./sanctions-import.ts";
import type { Database, SanctionsDesignationsTable, SanctionsVersionsTable } from "../schema.ts";

type DesignationRow = Pick<
  SanctionsDesignationsTable,
  "list" | "record_id" | "active" | "name" | "program" | "listed_at" | "first_seen" | "delisted_at" | "source_url" | "all_imos" | "all_mmsis" | "record"
> & { id: number; first_seen_at: number };

function toStored(r: DesignationRow): StoredDesignation {
  return storedOf(r, readStoredDesignation(r.record));
}

function storedOf(r: DesignationRow, record: Designation): StoredDesignation {
  return {
    id: r.id,
    list: r.list as SanctionsListKey,
    recordId: r.record_id,
    active: r.active === 1,
    name: r.name,
    program: r.program,
    listedAt: r.listed_at,
    firstSeen: r.first_seen,
    firstSeenAt: Number(r.first_seen_at),
    delistedAt: r.delisted_at,
    sourceUrl: r.source_url,
    allImos: JSON.parse(r.all_imos) as number[],
    allMmsis: JSON.parse(r.all_mmsis) as number[],
    measures: record.measures,
  };
}

const DESIGNATION_COLUMNS = [
  "d.id",
  "d.list",
  "d.record_id",
  "d.active",
  "d.name",
  "d.program",
  "d.listed_at",
  "d.first_seen",
  "d.delisted_at",
  "d.source_url",
  "d.all_imos",
  "d.all_mmsis",
  "d.record",
  "fv.imported_at as first_seen_at",
] as const;

function toVersionRow(r: Selectable<SanctionsVersionsTable>): SanctionsVersionRow {
  return {
    id: r.id,
    list: r.list as SanctionsListKey,
    asOf: r.as_of,
    importedAt: r.imported_at,
    origin: r.origin,
    checksum: r.checksum,
    records: r.records,
    active: r.active,
    listed: r.listed,
    delisted: r.delisted,
    changed: r.changed,
    baseline: r.baseline === 1,
  };
}

/** Designations of one list by IMO and MMSI value, as of one version. */
type ListIndex = { versionId: number; byValue: Map<number, IdentifierHit[]> };

export class SqlSanctionsStore implements SanctionsStore {
  readonly #db: Kysely<Database>;
  readonly #index = new Map<string, ListIndex>();
  readonly staleAfterDays: number;

  constructor(db: Kysely<Database>, options: { staleAfterDays?: number } = {}) {
    this.#db = db;
    this.staleAfterDays = options.staleAfterDays ?? DEFAULT_STALE_AFTER_DAYS;
  }

  importVersion(input: SanctionsVersionInput): Promise<SanctionsImportResult> {
    return importSanctionsVersion(this.#db, input);
  }

  async recordFetch(a: SanctionsFetchAttempt): Promise<void> {
    const ok = a.outcome !== "failed";
    const success = ok ? { succeeded_at: a.attemptedAt, succeeded_source: a.source } : {};
    await this.#db
      .insertInto("sanctions_fetches")
      .values({ list: a.list, attempted_at: a.attemptedAt, outcome: a.outcome, error: a.error, source: a.source, succeeded_at: null, succeeded_source: null, ...success })
      .onConflict((oc) => oc.column("list").doUpdateSet({ attempted_at: a.attemptedAt, outcome: a.outcome, error: a.error, source: a.source, ...success }))
      .execute();
  }

  async fetchStates(): Promise<SanctionsFetchState[]> {
    const rows = await this.#db.selectFrom("sanctions_fetches").selectAll().execute();
    const byList = new Map(rows.map((r) => [r.list, r]));
    return SANCTIONS_LISTS.map((list) => {
      const r = byList.get(list);
      return {
        list,
        attemptedAt: r ? Number(r.attempted_at) : null,
        outcome: (r?.outcome as SanctionsFetchOutcome | undefined) ?? null,
        error: r?.error ?? null,
        source: r?.source ?? null,
        succeededAt: r?.succeeded_at == null ? null : Number(r.succeeded_at),
        succeededSource: r?.succeeded_source ?? null,
      };
    });
  }

  async listStates(): Promise<SanctionsListState[]> {
    const rows = await this.#db.selectFrom("sanctions_lists").selectAll().execute();
    const byList = new Map(rows.map((r) => [r.list, r]));
    return SANCTIONS_LISTS.map((list) => {
      const r = byList.get(list);
      return {
        list,
        versionId: r?.version_id ?? null,
        asOf: r?.as_of ?? null,
        importedAt: r?.imported_at == null ? null : Number(r.imported_at),
        active: r?.active ?? 0,
        extract: r?.extract === 1,
      };
    });
  }

  async versions(list: SanctionsListKey): Promise<SanctionsVersionRow[]> {
    const rows = await this.#db.selectFrom("sanctions_versions").selectAll().where("list", "=", list).orderBy("id").execute();
    return rows.map(toVersionRow);
  }

  async versionsAfter(afterId: number, limit: number): Promise<SanctionsVersionRow[]> {
    const rows = await this.#db.selectFrom("sanctions_versions").selectAll().where("id", ">", afterId).orderBy("id").limit(limit).execute();
    return rows.map(toVersionRow);
  }

  async listActive(list: SanctionsListKey, afterId: number, limit: number): Promise<{ designation: StoredDesignation; record: Designation }[]> {
    const rows = await this.#db
      .selectFrom("sanctions_designations as d")
      .innerJoin("sanctions_versions as fv", "fv.id", "d.first_version_id")
      .select(DESIGNATION_COLUMNS)
      .where("d.list", "=", list)
      .where("d.active", "=", 1)
      .where("d.id", ">", afterId)
      .orderBy("d.id")
      .limit(limit)
      .execute();
    return rows.map((r) => {
      const record = readStoredDesignation(r.record);
      return { designation: storedOf(r, record), record };
    });
  }

  async findByIdentifiers(query: FindByIdentifiers): Promise<IdentifierHit[]> {
    const { imos, mmsis, lists } = query;
    if ((imos.length === 0 && mmsis.length === 0) || lists.length === 0) return [];
    const indexes = await this.#indexes(lists, query.states);
    const hits: IdentifierHit[] = [];
    for (const [kind, values] of [
      ["imo", imos],
      ["mmsi", mmsis],
    ] as const) {
      for (const value of new Set(values)) {
        // An MMSI with leading zeros can equal an IMO as a number: each hit keeps to its own kind.
        for (const index of indexes) for (const hit of index.byValue.get(value) ?? []) if (hit.kind === kind) hits.push(hit);
      }
    }
    return hits.sort((a, b) => a.id - b.id || (a.kind < b.kind ? -1 : 1));
  }

  /**
   * The identifiers of each list in memory, keyed by the list's version: every write to a
   * list's designations happens in an import, which moves its version, so one indexed read
   * of sanctions_lists per call tells whether the memory is current, in this process or
   * after another process imported.
   */
  async #indexes(lists: readonly SanctionsListKey[], given?: readonly SanctionsListState[]): Promise<ListIndex[]> {
    const states = given
      ? given.filter((st) => lists.includes(st.list)).map((st) => ({ list: st.list, version_id: st.versionId }))
      : await this.#db.selectFrom("sanctions_lists").select(["list", "version_id"]).where("list", "in", [...lists]).execute();
    const out: ListIndex[] = [];
    for (const { list, version_id: versionId } of states) {
      if (versionId === null) continue;
      const cached = this.#index.get(list);
      if (cached && cached.versionId === versionId) {
        out.push(cached);
        continue;
      }
      const rows = await this.#db
        .selectFrom("sanctions_identifiers as i")
        .innerJoin("sanctions_designations as d", "d.id", "i.designation_id")
        .innerJoin("sanctions_versions as fv", "fv.id", "d.first_version_id")
        .select([...DESIGNATION_COLUMNS, "i.kind", "i.value", "i.current"])
        .where("d.list", "=", list)
        .execute();
      const byValue = new Map<number, IdentifierHit[]>();
      for (const r of rows) {
        const hit: IdentifierHit = { ...toStored(r), kind: r.kind, value: Number(r.value), current: r.current === 1 };
        byValue.set(hit.value, [...(byValue.get(hit.value) ?? []), hit]);
      }
      // Read after the version: the rows are at least as new as versionId, so this is never stale.
      const index = { versionId, byValue };
      this.#index.set(list, index);
      out.push(index);
    }
    return out;
  }

  async events(afterId: number, limit: number): Promise<SanctionsEvent[]> {
    // The measures are read from the designation's record: events predate measures as objects, and hold no copy.
    const rows = await this.#db
      .selectFrom("sanctions_events as e")
      .leftJoin("sanctions_designations as d", "d.id", "e.designation_id")
      .selectAll("e")
      .select("d.record")
      .where("e.id", ">", afterId)
      .orderBy("e.id")
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      versionId: r.version_id,
      list: r.list as SanctionsListKey,
      recordId: r.record_id,
      action: r.action,
      name: r.name,
      imos: JSON.parse(r.imos) as number[],
      mmsis: JSON.parse(r.mmsis) as number[],
      program: r.program,
      measures: r.record ? readStoredDesignation(r.record).measures : [],
      date: r.date,
      dateSource: r.date_source as SanctionsEvent["dateSource"],
      sourceId: r.source_id,
      sourceUrl: r.source_url,
      baseline: r.baseline === 1,
      createdAt: r.created_at,
    }));
  }

  async changes(designationId: number): Promise<SanctionsChange[]> {
    const rows = await this.#db
      .selectFrom("sanctions_changes as c")
      .innerJoin("sanctions_versions as v", "v.id", "c.version_id")
      .select(["c.version_id", "v.as_of", "c.fields", "c.before", "c.after"])
      .where("c.designation_id", "=", designationId)
      .orderBy("c.id")
      .execute();
    return rows.map((r) => ({
      versionId: r.version_id,
      asOf: r.as_of,
      fields: JSON.parse(r.fields) as string[],
      before: JSON.parse(r.before) as Record<string, unknown>,
      after: JSON.parse(r.after) as Record<string, unknown>,
    }));
  }

  async feed(q: SanctionsFeedQuery): Promise<SanctionsFeedRow[]> {
    if (q.lists.length === 0 || q.actions.length === 0 || q.limit <= 0) return [];
    const eventActions = q.actions.filter((a): a is "listed" | "delisted" => a !== "changed");
    const a = q.after;
    const events =
      eventActions.length === 0
        ? []
        : await this.#db
            .selectFrom("sanctions_events as e")
            .innerJoin("sanctions_versions as v", "v.id", "e.version_id")
            .select(["e.id", "e.version_id", "e.designation_id", "e.list", "e.record_id", "e.action", "e.name", "e.imos", "e.mmsis", "e.program", "e.date", "e.date_source", "e.source_url", "e.baseline", "v.as_of"])
            .where("e.list", "in", [...q.lists])
            .where("e.action", "in", eventActions)
            .$if(q.since !== null, (qb) => qb.where("v.as_of", ">=", q.since!))
            .$if(q.until !== null, (qb) => qb.where("v.as_of", "<=", q.until!))
            .$if(q.throughVersion !== undefined, (qb) => qb.where("e.version_id", "<=", q.throughVersion!))
            .$if(a !== null, (qb) =>
              qb.where((eb) =>
                a!.kind === 1
                  ? eb("e.version_id", ">", a!.versionId)
                  : eb.or([eb("e.version_id", ">", a!.versionId), eb.and([eb("e.version_id", "=", a!.versionId), eb("e.id", ">", a!.id)])]),
              ),
            )
            .orderBy("e.version_id")
            .orderBy("e.id")
            .limit(q.limit)
            .execute();
    const changes = !q.actions.includes("changed")
      ? []
      : await this.#db
          .selectFrom("sanctions_changes as c")
          .innerJoin("sanctions_versions as v", "v.id", "c.version_id")
          .innerJoin("sanctions_designations as d", "d.id", "c.designation_id")
          .select(["c.id", "c.version_id", "c.designation_id", "c.fields", "c.before", "c.after", "d.list", "d.record_id", "d.name", "d.program", "d.source_url", "d.record", "v.as_of"])
          .where("d.list", "in", [...q.lists])
          .$if(q.since !== null, (qb) => qb.where("v.as_of", ">=", q.since!))
          .$if(q.until !== null, (qb) => qb.where("v.as_of", "<=", q.until!))
          .$if(q.throughVersion !== undefined, (qb) => qb.where("c.version_id", "<=", q.throughVersion!))
          .$if(a !== null, (qb) =>
            qb.where((eb) =>
              a!.kind === 0
                ? eb("c.version_id", ">=", a!.versionId)
                : eb.or([eb("c.version_id", ">", a!.versionId), eb.and([eb("c.version_id", "=", a!.versionId), eb("c.id", ">", a!.id)])]),
            ),
          )
          .orderBy("c.version_id")
          .orderBy("c.id")
          .limit(q.limit)
          .execute();
    const rows: SanctionsFeedRow[] = [
      ...events.map((r): SanctionsFeedRow => ({
        key: { versionId: r.version_id, kind: 0, id: r.id },
        action: r.action,
        list: r.list as SanctionsListKey,
        versionId: r.version_id,
        asOf: r.as_of,
        designationId: r.designation_id,
        recordId: r.record_id,
        name: r.name,
        imos: JSON.parse(r.imos) as number[],
        mmsis: JSON.parse(r.mmsis) as number[],
        program: r.program,
        date: r.date,
        dateSource: r.date_source as SanctionsFeedRow["dateSource"],
        baseline: r.baseline === 1,
        sourceUrl: r.source_url,
        fields: null,
        before: null,
        after: null,
      })),
      ...changes.map((r): SanctionsFeedRow => {
        const after = JSON.parse(r.after) as Record<string, unknown>;
        const record = readStoredDesignation(r.record);
        // The identifiers the change gave the record; the others as the record stands now.
        return {
          key: { versionId: r.version_id, kind: 1, id: r.id },
          action: "changed",
          list: r.list as SanctionsListKey,
          versionId: r.version_id,
          asOf: r.as_of,
          designationId: r.designation_id,
          recordId: r.record_id,
          name: typeof after.name === "string" ? after.name : record.name,
          imos: Array.isArray(after.imo) ? (after.imo as number[]) : record.imos,
          mmsis: Array.isArray(after.mmsi) ? (after.mmsi as number[]) : record.mmsis,
          program: "program" in after ? (after.program as string | null) : r.program,
          date: r.as_of,
          dateSource: "version",
          baseline: false,
          sourceUrl: r.source_url,
          fields: JSON.parse(r.fields) as string[],
          before: JSON.parse(r.before) as Record<string, unknown>,
          after,
        };
      }),
    ];
    rows.sort((x, y) => x.key.versionId - y.key.versionId || x.key.kind - y.key.kind || x.key.id - y.key.id);
    return rows.slice(0, q.limit);
  }

  async listedFacts(designationIds: readonly number[]): Promise<ListedVesselFacts[]> {
    if (designationIds.length === 0) return [];
    const rows = await this.#db
      .selectFrom("sanctions_designations as d")
      .innerJoin("sanctions_versions as fv", "fv.id", "d.first_version_id")
      .innerJoin("sanctions_versions as lv", "lv.id", "d.last_version_id")
      .innerJoin("sanctions_lists as l", "l.list", "d.list")
      .select(["d.id", "d.list", "d.record_id", "d.active", "d.listed_at", "d.delisted_at", "d.record", "d.all_mmsis", "fv.as_of as first_as_of", "lv.as_of as last_as_of", "l.as_of as list_as_of"])
      .where("d.id", "in", [...new Set(designationIds)])
      .orderBy("d.id")
      .execute();
    return rows.map((r) => ({
      designationId: r.id,
      list: r.list as SanctionsListKey,
      recordId: r.record_id,
      active: r.active === 1,
      record: readStoredDesignation(r.record),
      allMmsis: JSON.parse(r.all_mmsis) as number[],
      listedAt: r.listed_at,
      firstListedIn: r.first_as_of,
      // An import of the same publication moves only the list's as-of date: an active record was in that one too.
      lastListedIn: r.active === 1 && r.list_as_of !== null ? r.list_as_of : r.last_as_of,
      delistedAt: r.delisted_at,
    }));
  }
}
