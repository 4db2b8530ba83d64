import type { Insertable, Kysely, Transaction } from "kysely";
import { type Designation, readStoredDesignation } from "../../../domain/sanctions/designation.ts";
import { assertDelistingGuard, type DesignationChange, diffDesignations, type TrackedField } from "../../../domain/sanctions/diff.ts";
import { SanctionsImportError, type SanctionsImportResult, type SanctionsVersionInput } from "../../../interfaces/sanctions.ts";
import { inBatches } from "../batches.ts";
import type { Database, SanctionsEventsTable, SanctionsIdentifiersTable } from "../schema.ts";
import type { VersionCounts } from "../../../domain/sanctions/version.ts";

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

/** The sanctions_lists row every import locks first; not a list. */
const ALL_LISTS_LOCK = "*";

/**
 * Imports one version of a list, all or nothing: diffs it against the stored active
 * designations, opens and closes designation spells, keeps every identifier a record ever
 * had, and writes listing and delisting events to the outbox in the same transaction.
 */
export async function importSanctionsVersion(db: Kysely<Database>, input: SanctionsVersionInput): Promise<SanctionsImportResult> {
  const { list, asOf, importedAt } = input;
  return db.transaction().execute(async (tx) => {
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

    // The publication already stored (a daily fetch of a list that did not change): nothing
    // to diff, no version, no event. The list was confirmed as of this day, so its as-of date
    // and last import move on; delisting and first-seen dates stay exact because every
    // record was present on both days.
    if (state.version_id !== null) {
      const latest = await tx.selectFrom("sanctions_versions").select(["checksum", "extract", "records"]).where("id", "=", state.version_id).executeTakeFirstOrThrow();
      if (latest.checksum === input.checksum && latest.extract === (input.extract ? 1 : 0)) {
        await tx.updateTable("sanctions_lists").set({ as_of: asOf, imported_at: importedAt }).where("list", "=", list).execute();
        return {
          versionId: state.version_id,
          list,
          asOf,
          baseline: false,
          records: latest.records,
          active: state.active,
          listed: 0,
          delisted: 0,
          changed: 0,
          unchanged: state.active,
          events: 0,
          guard: "same publication as the stored version",
          samePublication: true,
        };
      }
    }

    const activeRows = await tx
      .selectFrom("sanctions_designations")
      .select(["id", "record_id", "record", "all_imos", "all_mmsis"])
      .where("list", "=", list)
      .where("active", "=", 1)
      .execute();
    const byRecord = new Map(activeRows.map((r) => [r.record_id, r]));
    // Records stored in an older shape read as the same publication imported now (no spurious change).
    const previous = activeRows.map((r) => readStoredDesignation(r.record));
    const diff = diffDesignations(previous, input.designations);
    const verdict = assertDelistingGuard(diff, input.guard);
    // The first version of a list is a starting state, not a change; so is the first full list
    // after a dated extract (the demo's): its listings were not observed as they happened.
    const baseline = state.version_id === null || (state.extract === 1 && input.extract !== true);
    const counts: VersionCounts = {
      records: input.designations.length,
      active: diff.currentActiveCount,
      listed: diff.listed.length,
      delisted: diff.delisted.length,
      changed: diff.changed.length,
      unchanged: diff.unchangedCount,
    };

    const version = await tx
      .insertInto("sanctions_versions")
      .values({
        list,
        as_of: asOf,
        imported_at: importedAt,
        origin: input.origin,
        extract: input.extract ? 1 : 0,
        checksum: input.checksum,
        bytes: input.bytes,
        ...counts,
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

    for (const change of diff.changed) await applyChange(tx, v, byRecord.get(change.recordId)!, change);

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
      .set({ version_id: v, as_of: asOf, imported_at: importedAt, active: diff.currentActiveCount, extract: input.extract ? 1 : 0 })
      .where("list", "=", list)
      .execute();

    return {
      versionId: v,
      list,
      asOf,
      baseline,
      ...counts,
      events: events.length,
      guard: verdict.message,
      samePublication: false,
    };
  });
}

/** A record changed under its id: keep every identifier it ever had, mark the dropped ones former. */
async function applyChange(tx: Transaction<Database>, v: number, row: { id: number; all_imos: string; all_mmsis: string }, change: DesignationChange): Promise<void> {
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
