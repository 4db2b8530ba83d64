import type { Insertable, Kysely, Transaction } from "kysely";
import { type Designation, SANCTIONS_LISTS, type SanctionsListKey } from "../../domain/sanctions/designation.ts";
import { assertDelistingGuard, type DesignationChange, diffDesignations, type TrackedField } from "../../domain/sanctions/diff.ts";
import {
  type FindByIdentifiers,
  type IdentifierHit,
  type SanctionsChange,
  type SanctionsEvent,
  SanctionsImportError,
  type SanctionsImportResult,
  type SanctionsListState,
  type SanctionsStore,
  type SanctionsVersionInput,
  type SanctionsVersionRow,
  type StoredDesignation,
} from "../../ports/sanctions.ts";
import { inBatches } from "./batches.ts";
import type { Database, SanctionsDesignationsTable, SanctionsEventsTable, SanctionsIdentifiersTable } from "./schema.ts";

/** Rows per INSERT: the widest table has 17 columns, far below both engines' bound-variable limits. */
const BATCH = 200;

const union = (a: readonly number[], b: readonly number[]) => [...new Set([...a, ...b])];

/** The value of a tracked field, for the before/after of a change row. */
function fieldValue(d: Designation, field: TrackedField): unknown {
  switch (field) {
    case "imo":
      return d.imos;
    case "invalidImo":
      return d.invalidImos;
    case "mmsi":
      return d.mmsis;
    case "program":
      return d.program;
    default:
      return d[field];
  }
}

type DesignationRow = Pick<
  SanctionsDesignationsTable,
  "list" | "record_id" | "active" | "name" | "program" | "listed_at" | "first_seen" | "delisted_at" | "source_url" | "all_imos" | "all_mmsis"
> & { id: number };

function toStored(r: DesignationRow): StoredDesignation {
  return {
    id: r.id,
    list: r.list as SanctionsListKey,
    recordId: r.record_id,
    active: r.active === 1,
    name: r.name,
    program: r.program,
    listedAt: r.listed_at,
    firstSeen: r.first_seen,
    delistedAt: r.delisted_at,
    sourceUrl: r.source_url,
    allImos: JSON.parse(r.all_imos) as number[],
    allMmsis: JSON.parse(r.all_mmsis) as number[],
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
] as const;

/** The sanctions_lists row every import locks first; not a list. */
const ALL_LISTS_LOCK = "*";

/** Designations of one list by IMO and MMSI value, as of one version. */
type ListIndex = { versionId: number; byValue: Map<number, IdentifierHit[]> };

export class SqlSanctionsStore implements SanctionsStore {
  readonly #db: Kysely<Database>;
  readonly #index = new Map<string, ListIndex>();

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async importVersion(input: SanctionsVersionInput): Promise<SanctionsImportResult> {
    const { list, asOf, importedAt } = input;
    return this.#db.transaction().execute(async (tx) => {
      // Writing a row first takes its row lock (PostgreSQL) or the write lock (SQLite). The
      // sentinel row serialises all sanctions imports, so outbox event ids are committed in
      // increasing order and a reader of `id > last` never skips one committed late; the
      // list's own row is then read as the state to diff against.
      for (const row of [ALL_LISTS_LOCK, list]) {
        await tx
          .insertInto("sanctions_lists")
          .values({ list: row, version_id: null, as_of: null, imported_at: null, active: 0, locked_at: importedAt })
          .onConflict((oc) => oc.column("list").doUpdateSet({ locked_at: importedAt }))
          .execute();
      }
      const state = await tx.selectFrom("sanctions_lists").selectAll().where("list", "=", list).executeTakeFirstOrThrow();
      if (state.as_of !== null && asOf < state.as_of) {
        throw new SanctionsImportError(
          `refusing the ${list} import: it is dated ${asOf}, before the stored version of ${state.as_of}; versions must be imported in date order`,
        );
      }

      const activeRows = await tx
        .selectFrom("sanctions_designations")
        .select(["id", "record_id", "record", "all_imos", "all_mmsis"])
        .where("list", "=", list)
        .where("active", "=", 1)
        .execute();
      const byRecord = new Map(activeRows.map((r) => [r.record_id, r]));
      const previous = activeRows.map((r) => JSON.parse(r.record) as Designation);
      const diff = diffDesignations(previous, input.designations);
      const verdict = assertDelistingGuard(diff, input.guard);
      const baseline = state.version_id === null;

      const version = await tx
        .insertInto("sanctions_versions")
        .values({
          list,
          as_of: asOf,
          imported_at: importedAt,
          origin: input.origin,
          checksum: input.checksum,
          bytes: input.bytes,
          records: input.designations.length,
          active: diff.currentActiveCount,
          listed: diff.listed.length,
          delisted: diff.delisted.length,
          changed: diff.changed.length,
          unchanged: diff.unchangedCount,
          baseline: baseline ? 1 : 0,
          guard: verdict.message,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const v = version.id;
      const events: Insertable<SanctionsEventsTable>[] = [];
      const event = (designationId: number, d: Designation, action: "listed" | "delisted", date: string, dateSource: string) =>
        events.push({
          version_id: v,
          designation_id: designationId,
          list,
          record_id: d.recordId,
          action,
          name: d.name,
          imos: JSON.stringify(d.imos),
          mmsis: JSON.stringify(d.mmsis),
          program: d.program,
          date,
          date_source: dateSource,
          source_id: list,
          source_url: d.sourceUrl,
          baseline: baseline ? 1 : 0,
          created_at: importedAt,
        });

      // New spells, their identifiers and listing events.
      const ids = new Map<string, number>();
      await inBatches(diff.listed, BATCH, async (batch) => {
        const inserted = await tx
          .insertInto("sanctions_designations")
          .values(
            batch.map((d) => ({
              list,
              record_id: d.recordId,
              active: 1,
              name: d.name,
              program: d.program,
              listed_at: d.listedAt,
              first_seen: asOf,
              delisted_at: null,
              delisted_source: null,
              first_version_id: v,
              last_version_id: v,
              delisted_version_id: null,
              source_url: d.sourceUrl,
              all_imos: JSON.stringify(d.imos),
              all_mmsis: JSON.stringify(d.mmsis),
              record: JSON.stringify(d),
            })),
          )
          .returning(["id", "record_id"])
          .execute();
        // RETURNING order is not guaranteed: map back by record id, unique among active spells.
        for (const r of inserted) ids.set(r.record_id, r.id);
      });
      const identifiers: Insertable<SanctionsIdentifiersTable>[] = [];
      for (const d of diff.listed) {
        const id = ids.get(d.recordId)!;
        for (const value of d.imos) identifiers.push({ designation_id: id, kind: "imo", value, current: 1, first_version_id: v, last_version_id: v });
        for (const value of d.mmsis) identifiers.push({ designation_id: id, kind: "mmsi", value, current: 1, first_version_id: v, last_version_id: v });
        event(id, d, "listed", d.listedAt ?? asOf, d.listedAt ? "list" : "first_seen");
      }
      await inBatches(identifiers, BATCH, (batch) => tx.insertInto("sanctions_identifiers").values(batch).execute());

      // Delistings: a vanished record is delisted on this version's date; New Zealand's
      // in-file deletions carry the list's own date and the record as it stands now.
      for (const d of diff.delisted) {
        const row = byRecord.get(d.recordId)!;
        const fromList = d.status === "deleted" && d.deletedAt !== null;
        const date = fromList ? d.deletedAt! : asOf;
        await tx
          .updateTable("sanctions_designations")
          .set({
            active: 0,
            delisted_at: date,
            delisted_source: fromList ? "list" : "absent",
            delisted_version_id: v,
            ...(d.status === "deleted" ? { record: JSON.stringify(d) } : {}),
          })
          .where("id", "=", row.id)
          .execute();
        event(row.id, d, "delisted", date, fromList ? "list" : "absent");
      }

      for (const change of diff.changed) await this.#applyChange(tx, v, byRecord.get(change.recordId)!, change);

      // Fields the diff does not track (tonnage, remarks...) still follow the latest version.
      const changedIds = new Set(diff.changed.map((c) => c.recordId));
      for (const d of input.designations) {
        const row = byRecord.get(d.recordId);
        if (!row || changedIds.has(d.recordId) || d.status !== "active") continue;
        const json = JSON.stringify(d);
        if (json !== row.record) await tx.updateTable("sanctions_designations").set({ record: json, source_url: d.sourceUrl }).where("id", "=", row.id).execute();
      }

      await inBatches(events, BATCH, (batch) => tx.insertInto("sanctions_events").values(batch).execute());

      // Everything still designated (and every identifier it still carries) was seen in this version.
      const stillActive = tx.selectFrom("sanctions_designations").select("id").where("list", "=", list).where("active", "=", 1);
      await tx.updateTable("sanctions_identifiers").set({ last_version_id: v }).where("current", "=", 1).where("designation_id", "in", stillActive).execute();
      await tx.updateTable("sanctions_designations").set({ last_version_id: v }).where("list", "=", list).where("active", "=", 1).execute();
      await tx
        .updateTable("sanctions_lists")
        .set({ version_id: v, as_of: asOf, imported_at: importedAt, active: diff.currentActiveCount })
        .where("list", "=", list)
        .execute();

      return {
        versionId: v,
        list,
        asOf,
        baseline,
        records: input.designations.length,
        active: diff.currentActiveCount,
        listed: diff.listed.length,
        delisted: diff.delisted.length,
        changed: diff.changed.length,
        unchanged: diff.unchangedCount,
        events: events.length,
        guard: verdict.message,
      };
    });
  }

  /** A record changed under its id: keep every identifier it ever had, mark the dropped ones former. */
  async #applyChange(tx: Transaction<Database>, v: number, row: { id: number; all_imos: string; all_mmsis: string }, change: DesignationChange): Promise<void> {
    const c = change.current;
    await tx
      .updateTable("sanctions_designations")
      .set({
        name: c.name,
        program: c.program,
        listed_at: c.listedAt,
        source_url: c.sourceUrl,
        record: JSON.stringify(c),
        all_imos: JSON.stringify(union(JSON.parse(row.all_imos) as number[], c.imos)),
        all_mmsis: JSON.stringify(union(JSON.parse(row.all_mmsis) as number[], c.mmsis)),
      })
      .where("id", "=", row.id)
      .execute();
    for (const [kind, set] of [
      ["imo", change.imo],
      ["mmsi", change.mmsi],
    ] as const) {
      if (!set) continue;
      if (set.removed.length > 0) {
        await tx
          .updateTable("sanctions_identifiers")
          .set({ current: 0 })
          .where("designation_id", "=", row.id)
          .where("kind", "=", kind)
          .where("value", "in", set.removed)
          .execute();
      }
      for (const value of set.added) {
        // An identifier can come back (an MMSI restored after a reflag): the row is reused.
        await tx
          .insertInto("sanctions_identifiers")
          .values({ designation_id: row.id, kind, value, current: 1, first_version_id: v, last_version_id: v })
          .onConflict((oc) => oc.columns(["designation_id", "kind", "value"]).doUpdateSet({ current: 1, last_version_id: v }))
          .execute();
      }
    }
    const before = Object.fromEntries(change.fields.map((f) => [f, fieldValue(change.previous, f)]));
    const after = Object.fromEntries(change.fields.map((f) => [f, fieldValue(c, f)]));
    await tx
      .insertInto("sanctions_changes")
      .values({ version_id: v, designation_id: row.id, fields: JSON.stringify(change.fields), before: JSON.stringify(before), after: JSON.stringify(after) })
      .execute();
  }

  async listStates(): Promise<SanctionsListState[]> {
    const rows = await this.#db.selectFrom("sanctions_lists").selectAll().execute();
    const byList = new Map(rows.map((r) => [r.list, r]));
    return SANCTIONS_LISTS.map((list) => {
      const r = byList.get(list);
      return { list, versionId: r?.version_id ?? null, asOf: r?.as_of ?? null, importedAt: r?.imported_at ?? null, active: r?.active ?? 0 };
    });
  }

  async versions(list: SanctionsListKey): Promise<SanctionsVersionRow[]> {
    const rows = await this.#db.selectFrom("sanctions_versions").selectAll().where("list", "=", list).orderBy("id").execute();
    return rows.map((r) => ({
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
    }));
  }

  async listActive(list: SanctionsListKey, afterId: number, limit: number): Promise<{ designation: StoredDesignation; record: Designation }[]> {
    const rows = await this.#db
      .selectFrom("sanctions_designations as d")
      .select([...DESIGNATION_COLUMNS, "d.record"])
      .where("d.list", "=", list)
      .where("d.active", "=", 1)
      .where("d.id", ">", afterId)
      .orderBy("d.id")
      .limit(limit)
      .execute();
    return rows.map((r) => ({ designation: toStored(r), record: JSON.parse(r.record) as Designation }));
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
    const rows = await this.#db.selectFrom("sanctions_events").selectAll().where("id", ">", afterId).orderBy("id").limit(limit).execute();
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
}
