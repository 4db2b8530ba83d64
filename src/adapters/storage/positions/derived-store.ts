import { SqlStore } from "../sql-store.ts";
import { sql, type Transaction } from "kysely";
import { derivedStateTime, type VesselDerivedState } from "../../../domain/derived/derive.ts";
import { PORT_CALL_VERSION } from "../../../domain/derived/port-call-detector.ts";
import type { BBox } from "../../../domain/alerts/geometry.ts";
import type { DerivedFix } from "../../../domain/derived/fix.ts";
import type { VesselEvent, VesselEventType } from "../../../domain/derived/vessel-event.ts";
import type { LastHeard } from "../../../domain/derived/gap-detector.ts";
import type { NewAlert } from "../../../interfaces/webhooks.ts";
import {
  RISK_CALLS_LIMIT,
  type DerivedCommit,
  type DerivedStore,
  type EventCount,
  type PortCallQuery,
  type PortPlace,
  type QueuedDerivedFix,
  type RiskFacts,
  type RiskFactsQuery,
  type StoredCrossing,
  type StoredEpisode,
  type StoredPortCall,
  type StoredVesselEvent,
  type VesselEventQuery,
} from "../../../interfaces/derived.ts";
import type { VisibleStations } from "../../../interfaces/vessels.ts";
import type { BulkRow } from "../dialect/dialect.ts";
import type { Database, PortCallsTable, VesselEventsTable } from "../schema.ts";
import { writeAlerts } from "../alerts/webhook-outbox.ts";
import { writeVesselEvents } from "./vessel-event-rows.ts";

/** Thrown inside the commit transaction to roll it back when the page, or a state it started from, changed under it. */
class PageTaken extends Error {}

const STATE_CONFLICT = `ON CONFLICT (station_id, mmsi) DO UPDATE SET last_time = excluded.last_time, state = excluded.state`;
const CALL_CONFLICT = `ON CONFLICT (id) DO UPDATE SET departure = excluded.departure, confidence = excluded.confidence, version = excluded.version, detail = excluded.detail, updated_at = excluded.updated_at`;
/** Members of one IN list when looking up states. */
const CHUNK = 400;

const stateKey = (stationId: number, mmsi: number) => `${stationId}:${mmsi}`;

/** Vessels' keys as one IN list of MMSIs per station and chunk: how their states are looked up. */
function stationChunks(keys: readonly { stationId: number; mmsi: number }[]): { stationId: number; mmsis: number[] }[] {
  const byStation = new Map<number, number[]>();
  for (const k of keys) byStation.set(k.stationId, [...(byStation.get(k.stationId) ?? []), k.mmsi]);
  const out: { stationId: number; mmsis: number[] }[] = [];
  for (const [stationId, mmsis] of byStation) for (let at = 0; at < mmsis.length; at += CHUNK) out.push({ stationId, mmsis: mmsis.slice(at, at + CHUNK) });
  return out;
}

/** Derived facts, their queue and the detectors' state on SQLite or PostgreSQL (0019-derived-facts.ts). */
export class SqlDerivedStore extends SqlStore implements DerivedStore {

  async queued(limit: number): Promise<QueuedDerivedFix[]> {
    const rows = await this.db.selectFrom("derived_feed").selectAll().orderBy("id").limit(limit).execute();
    return rows.map((r) => ({
      id: Number(r.id),
      fix: { mmsi: r.mmsi, time: Number(r.time), stationId: r.station_id, lat: r.lat, lon: r.lon, sog: r.sog, navStatus: r.nav_status },
    }));
  }

  async states(keys: readonly { stationId: number; mmsi: number }[]): Promise<Map<string, VesselDerivedState>> {
    const out = new Map<string, VesselDerivedState>();
    for (const { stationId, mmsis } of stationChunks(keys)) {
      const rows = await this.db.selectFrom("derived_state").select(["mmsi", "state"]).where("station_id", "=", stationId).where("mmsi", "in", mmsis).execute();
      for (const r of rows) out.set(stateKey(stationId, r.mmsi), JSON.parse(r.state) as VesselDerivedState);
    }
    return out;
  }

  /** Whether every state is still as the page found it (its last fix's time, or none stored). */
  async #basisHolds(trx: Transaction<Database>, basis: NonNullable<DerivedCommit["basis"]>): Promise<boolean> {
    const stored = new Map<string, number>();
    for (const { stationId, mmsis } of stationChunks(basis)) {
      const rows = await trx.selectFrom("derived_state").select(["mmsi", "last_time"]).where("station_id", "=", stationId).where("mmsi", "in", mmsis).execute();
      for (const r of rows) stored.set(stateKey(stationId, r.mmsi), Number(r.last_time));
    }
    return basis.every((b) => (stored.get(stateKey(b.stationId, b.mmsi)) ?? null) === b.time);
  }

  async silentVessels(heardFrom: number, heardTo: number, limit: number): Promise<(LastHeard & { stateTime: number })[]> {
    const rows = await this.db
      .selectFrom("derived_state")
      .select(["station_id", "mmsi", "last_time", "state"])
      .where("last_time", ">=", heardFrom)
      .where("last_time", "<=", heardTo)
      .orderBy("last_time")
      .limit(limit)
      .execute();
    const out: (LastHeard & { stateTime: number })[] = [];
    for (const r of rows) {
      const b = (JSON.parse(r.state) as VesselDerivedState).behaviour;
      if (b && b.t >= 0) out.push({ stationId: r.station_id, mmsi: r.mmsi, time: b.t, lat: b.lat, lon: b.lon, stateTime: Number(r.last_time) });
    }
    return out;
  }

  async openGapIds(since: number): Promise<Set<string>> {
    const rows = await this.db.selectFrom("vessel_events").select("id").where("type", "=", "ais_gap").where("end", "is", null).where("start", ">=", since).execute();
    return new Set(rows.map((r) => r.id));
  }

  async commit(page: DerivedCommit, now: number): Promise<{ consumed: boolean; deliveries: number }> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        if (page.count > 0) {
          const gone = await trx.deleteFrom("derived_feed").where("id", ">=", page.first).where("id", "<=", page.last).executeTakeFirst();
          if (Number(gone.numDeletedRows) !== page.count) throw new PageTaken();
        }
        if (page.basis && !(await this.#basisHolds(trx, page.basis))) throw new PageTaken();
        await this.dialect.bulkInsert(trx, {
          table: "derived_state",
          columns: ["station_id", "mmsi", "last_time", "state"],
          types: ["int4", "int4", "int8", "text"],
          rows: page.states.map((s): BulkRow => [s.stationId, s.mmsi, derivedStateTime(s.state), JSON.stringify(s.state)]),
          tail: STATE_CONFLICT,
        });
        // The last version of each call in the page wins (a call grows while the vessel stays).
        const calls = new Map(page.calls.map((c) => [c.id, c]));
        await this.dialect.bulkInsert(trx, {
          table: "port_calls",
          columns: ["id", "station_id", "mmsi", "unlocode", "arrival", "departure", "confidence", "version", "detail", "updated_at"],
          types: ["text", "int4", "int4", "text", "int8", "int8", "int4", "text", "text", "int8"],
          rows: [...calls.values()].map((c): BulkRow => {
            const { id, stationId, mmsi, unlocode, arrival, departure, confidence, ...detail } = c;
            return [id, stationId, mmsi, unlocode, arrival, departure, confidence, PORT_CALL_VERSION, JSON.stringify(detail), now];
          }),
          tail: CALL_CONFLICT,
        });
        await this.dialect.bulkInsert(trx, {
          table: "gate_crossings",
          columns: ["gate_id", "mmsi", "station_id", "time", "direction", "gap_ms", "observed"],
          types: ["text", "int4", "int4", "int8", "text", "int8", "int2"],
          rows: page.crossings.map((c): BulkRow => [c.gateId, c.mmsi, c.stationId, c.time, c.direction, c.gapMs, c.observed ? 1 : 0]),
          tail: "ON CONFLICT DO NOTHING",
        });
        // A silence that ended withdraws the gap recorded open over it; the closed gap, when the
        // silence is one, is written again below under the same id.
        for (let at = 0; at < (page.silencesEnded ?? []).length; at += CHUNK) {
          await trx.deleteFrom("vessel_events").where("id", "in", page.silencesEnded!.slice(at, at + CHUNK)).where("end", "is", null).execute();
        }
        await writeVesselEvents(trx, this.dialect, page.events, now);
        await this.dialect.bulkInsert(trx, {
          table: "slow_episodes",
          columns: ["station_id", "mmsi", "start", "last", "lat", "lon"],
          types: ["int4", "int4", "int8", "int8", "float8", "float8"],
          rows: [...new Map(page.episodes.map((e) => [`${e.stationId}:${e.mmsi}:${e.start}`, e])).values()].map((e): BulkRow => [e.stationId, e.mmsi, e.start, e.last, e.lat, e.lon]),
          tail: "ON CONFLICT DO NOTHING",
        });
        const heard = new Map<string, BulkRow>();
        for (const h of page.heard) heard.set(`${h.stationId}:${h.hour}:${h.cell}`, [h.stationId, h.hour, h.cell]);
        await this.dialect.bulkInsert(trx, { table: "station_heard", columns: ["station_id", "hour", "cell"], types: ["int4", "int8", "int4"], rows: [...heard.values()], tail: "ON CONFLICT DO NOTHING" });
        const seen = new Set<string>();
        const coverage: BulkRow[] = [];
        for (const c of page.coverage) {
          const k = `${c.gateId}:${c.hour}:${c.stationId}`;
          if (seen.has(k)) continue;
          seen.add(k);
          coverage.push([c.gateId, c.hour, c.stationId]);
        }
        await this.dialect.bulkInsert(trx, { table: "gate_coverage", columns: ["gate_id", "hour", "station_id"], types: ["text", "int8", "int4"], rows: coverage, tail: "ON CONFLICT DO NOTHING" });
        const r = await writeAlerts(trx, this.dialect, page.alerts, now);
        return { consumed: true, deliveries: r.deliveries };
      });
    } catch (e) {
      if (e instanceof PageTaken) return { consumed: false, deliveries: 0 };
      throw e;
    }
  }

  async queuedIdentityEvents(limit: number): Promise<VesselEvent[]> {
    const rows = await this.db.selectFrom("identity_event_feed").innerJoin("vessel_events", "vessel_events.id", "identity_event_feed.event_id").selectAll("vessel_events").orderBy("vessel_events.start").orderBy("vessel_events.id").limit(limit).execute();
    return rows.map(toEvent);
  }

  async commitIdentityAlerts(eventIds: readonly string[], alerts: readonly NewAlert[], now: number): Promise<{ deliveries: number }> {
    if (eventIds.length === 0) return { deliveries: 0 };
    return this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom("identity_event_feed").where("event_id", "in", [...eventIds]).execute();
      return { deliveries: (await writeAlerts(trx, this.dialect, alerts, now)).deliveries };
    });
  }

  async portPlaces(): Promise<PortPlace[]> {
    const rows = await this.db.selectFrom("ports").select(["unlocode", "name", "lat", "lon", "wpi"]).where("lat", "is not", null).where("lon", "is not", null).execute();
    return rows.map((r) => {
      const wpi = r.wpi ? (JSON.parse(r.wpi) as { harborSize?: string | null }) : null;
      return { unlocode: r.unlocode, name: r.name, lat: r.lat!, lon: r.lon!, harbourSize: wpi?.harborSize ?? null };
    });
  }

  vesselCalls(mmsis: readonly number[], q: PortCallQuery): Promise<StoredPortCall[]> {
    if (mmsis.length === 0 || q.visible.length === 0) return Promise.resolve([]);
    return this.#calls(q, { mmsis });
  }

  portCalls(unlocode: string, q: PortCallQuery): Promise<StoredPortCall[]> {
    if (q.visible.length === 0) return Promise.resolve([]);
    return this.#calls(q, { unlocode });
  }

  areaCalls(bbox: BBox, q: PortCallQuery): Promise<StoredPortCall[]> {
    if (q.visible.length === 0) return Promise.resolve([]);
    return this.#calls(q, { bbox });
  }

  async #calls(q: PortCallQuery, of: { mmsis?: readonly number[]; unlocode?: string; bbox?: BBox }): Promise<StoredPortCall[]> {
    let b = this.db.selectFrom("port_calls").selectAll("port_calls");
    if (of.mmsis) b = b.where("port_calls.mmsi", "in", [...of.mmsis]);
    else if (of.unlocode !== undefined) b = b.where("port_calls.unlocode", "=", of.unlocode);
    else {
      // A call is in the box when its port's coordinates are.
      const box = of.bbox!;
      b = b
        .innerJoin("ports", "ports.unlocode", "port_calls.unlocode")
        .where("ports.lat", ">=", box.minLat)
        .where("ports.lat", "<=", box.maxLat)
        .where("ports.lon", ">=", box.minLon)
        .where("ports.lon", "<=", box.maxLon);
    }
    b = b.where("port_calls.arrival", ">=", q.from).where("port_calls.arrival", "<", q.to).where(this.dialect.anyOf("port_calls.station_id", q.visible));
    if (q.newestFirst) {
      const rows = await b.orderBy("port_calls.arrival", "desc").orderBy("port_calls.id", "desc").limit(q.limit).execute();
      return rows.map(toCall);
    }
    if (q.after) {
      const after = q.after;
      b = b.where((eb) => eb.or([eb("port_calls.arrival", ">", after.arrival), eb.and([eb("port_calls.arrival", "=", after.arrival), eb("port_calls.id", ">", after.id)])]));
    }
    const rows = await b.orderBy("port_calls.arrival").orderBy("port_calls.id").limit(q.limit).execute();
    return rows.map(toCall);
  }

  vesselEvents(mmsis: readonly number[], q: VesselEventQuery): Promise<StoredVesselEvent[]> {
    if (mmsis.length === 0) return Promise.resolve([]);
    return this.#events(q, { mmsis });
  }

  areaEvents(bbox: BBox, q: VesselEventQuery): Promise<StoredVesselEvent[]> {
    return this.#events(q, { bbox });
  }

  async #events(q: VesselEventQuery, of: { mmsis?: readonly number[]; bbox?: BBox }): Promise<StoredVesselEvent[]> {
    if (q.visible.length === 0 || q.types.length === 0 || q.limit <= 0 || q.from >= q.to) return [];
    let b = this.db.selectFrom("vessel_events").selectAll();
    if (of.mmsis) b = b.where("mmsi", "in", [...of.mmsis]);
    else {
      const box = of.bbox!;
      b = b.where("lat", ">=", box.minLat).where("lat", "<=", box.maxLat).where("lon", ">=", box.minLon).where("lon", "<=", box.maxLon);
    }
    b = b.where("type", "in", [...q.types]).where("start", ">=", q.from).where("start", "<", q.to).where(this.dialect.anyOf("station_id", q.visible));
    if (q.newestFirst) {
      const rows = await b.orderBy("start", "desc").orderBy("id", "desc").limit(q.limit).execute();
      return rows.map(toEvent);
    }
    if (q.after) {
      const after = q.after;
      b = b.where((eb) => eb.or([eb("start", ">", after.start), eb.and([eb("start", "=", after.start), eb("id", ">", after.id)])]));
    }
    const rows = await b.orderBy("start").orderBy("id").limit(q.limit).execute();
    return rows.map(toEvent);
  }

  async vesselEventCounts(mmsis: readonly number[], q: { visible: VisibleStations; from: number; to: number }): Promise<EventCount[]> {
    if (mmsis.length === 0 || q.visible.length === 0 || q.from >= q.to) return [];
    const events = await this.db
      .selectFrom("vessel_events")
      .select(["station_id", "type", sql<number>`count(*)`.as("n")])
      .where("mmsi", "in", [...mmsis])
      .where("start", ">=", q.from)
      .where("start", "<", q.to)
      .where(this.dialect.anyOf("station_id", q.visible))
      .groupBy(["station_id", "type"])
      .execute();
    const calls = await this.db
      .selectFrom("port_calls")
      .select(["station_id", sql<number>`count(*)`.as("n")])
      .where("mmsi", "in", [...mmsis])
      .where("arrival", ">=", q.from)
      .where("arrival", "<", q.to)
      .where(this.dialect.anyOf("station_id", q.visible))
      .groupBy("station_id")
      .execute();
    return [
      ...calls.map((r) => ({ stationId: r.station_id, type: "port_call", count: Number(r.n) })),
      ...events.map((r) => ({ stationId: r.station_id, type: r.type, count: Number(r.n) })),
    ].sort((a, b) => a.stationId - b.stationId || a.type.localeCompare(b.type));
  }

  async vesselRiskFacts(mmsis: readonly number[], q: RiskFactsQuery): Promise<RiskFacts> {
    if (mmsis.length === 0 || q.visible.length === 0 || q.from >= q.to) return { events: [], encounters: [], calls: [] };
    // An identity conflict is an identity_change whose details say so (identity-change-detector.ts writes `"kind":"conflict"`).
    const conflict = sql<number>`case when type = 'identity_change' and detail like '%"kind":"conflict"%' then 1 else 0 end`;
    const [events, encounters, calls] = await Promise.all([
      this.db
        .selectFrom("vessel_events")
        .select(["station_id", "type", conflict.as("conflict"), sql<number>`count(*)`.as("n"), sql<number>`max(start)`.as("latest")])
        .where("mmsi", "in", [...mmsis])
        .where("start", ">=", q.from)
        .where("start", "<", q.to)
        .where(this.dialect.anyOf("station_id", q.visible))
        .groupBy(["station_id", "type", conflict])
        .execute(),
      this.db
        .selectFrom("vessel_events")
        .select(["station_id", "counterpart_mmsi", sql<number>`count(*)`.as("n"), sql<number>`max(start)`.as("latest")])
        .where("mmsi", "in", [...mmsis])
        .where("type", "=", "encounter")
        .where("counterpart_mmsi", "is not", null)
        .where("start", ">=", q.from)
        .where("start", "<", q.to)
        .where(this.dialect.anyOf("station_id", q.visible))
        .groupBy(["station_id", "counterpart_mmsi"])
        .execute(),
      q.callCountries.length + q.callCodes.length === 0
        ? []
        : this.db
            .selectFrom("port_calls")
            .select(["station_id", "unlocode", "arrival"])
            .where("mmsi", "in", [...mmsis])
            .where("arrival", ">=", q.from)
            .where("arrival", "<", q.to)
            .where(this.dialect.anyOf("station_id", q.visible))
            .where((eb) =>
              eb.or([
                ...(q.callCountries.length > 0 ? [eb(sql<string>`substr(unlocode, 1, 2)`, "in", [...q.callCountries])] : []),
                ...(q.callCodes.length > 0 ? [eb("unlocode", "in", [...q.callCodes])] : []),
              ]),
            )
            .orderBy("arrival")
            .limit(RISK_CALLS_LIMIT)
            .execute(),
    ]);
    return {
      events: events
        .map((r) => ({ stationId: r.station_id, type: Number(r.conflict) === 1 ? "identity_conflict" : r.type, count: Number(r.n), latest: Number(r.latest) }))
        .sort((a, b) => a.stationId - b.stationId || a.type.localeCompare(b.type)),
      encounters: encounters
        .map((r) => ({ stationId: r.station_id, counterpartMmsi: r.counterpart_mmsi!, count: Number(r.n), latest: Number(r.latest) }))
        .sort((a, b) => a.stationId - b.stationId || a.counterpartMmsi - b.counterpartMmsi),
      calls: calls.map((r) => ({ stationId: r.station_id, unlocode: r.unlocode, arrival: Number(r.arrival) })),
    };
  }

  async crossings(visible: VisibleStations, since: number, gateId?: string): Promise<StoredCrossing[]> {
    if (visible.length === 0) return [];
    let q = this.db.selectFrom("gate_crossings").selectAll().where("time", ">=", since).where(this.dialect.anyOf("station_id", visible));
    if (gateId) q = q.where("gate_id", "=", gateId);
    const rows = await q.orderBy("time").execute();
    return rows.map((r) => ({ gateId: r.gate_id, mmsi: r.mmsi, stationId: r.station_id, time: Number(r.time), direction: r.direction, gapMs: Number(r.gap_ms), observed: r.observed === 1 }));
  }

  async coveredHours(visible: VisibleStations, since: number): Promise<Map<string, number>> {
    if (visible.length === 0) return new Map();
    const rows = await this.db
      .selectFrom("gate_coverage")
      .select(["gate_id", sql<number>`count(distinct hour)`.as("hours")])
      .where("hour", ">=", since)
      .where(this.dialect.anyOf("station_id", visible))
      .groupBy("gate_id")
      .execute();
    return new Map(rows.map((r) => [r.gate_id, Number(r.hours)]));
  }

  async gateStations(visible: VisibleStations, since: number): Promise<Map<string, number[]>> {
    if (visible.length === 0) return new Map();
    const rows = await this.db
      .selectFrom("gate_coverage")
      .select(["gate_id", "station_id"])
      .distinct()
      .where("hour", ">=", since)
      .where(this.dialect.anyOf("station_id", visible))
      .execute();
    const out = new Map<string, number[]>();
    for (const r of rows) out.set(r.gate_id, [...(out.get(r.gate_id) ?? []), r.station_id].sort((a, b) => a - b));
    return out;
  }

  async heardHours(stationId: number, cells: readonly number[], hours: readonly number[]): Promise<Set<number>> {
    if (cells.length === 0 || hours.length === 0) return new Set();
    const rows = await this.db
      .selectFrom("station_heard")
      .select("hour")
      .distinct()
      .where("station_id", "=", stationId)
      .where("hour", ">=", Math.min(...hours))
      .where("hour", "<=", Math.max(...hours))
      .where("cell", "in", [...cells])
      .execute();
    return new Set(rows.map((r) => Number(r.hour)));
  }

  async episodesNear(stationId: number, from: number, to: number, box: { minLat: number; maxLat: number; minLon: number; maxLon: number }): Promise<StoredEpisode[]> {
    const rows = await this.db
      .selectFrom("slow_episodes")
      .selectAll()
      .where("station_id", "=", stationId)
      .where("last", ">=", from)
      .where("start", "<=", to)
      .where("lat", ">=", box.minLat)
      .where("lat", "<=", box.maxLat)
      .where("lon", ">=", box.minLon)
      .where("lon", "<=", box.maxLon)
      .execute();
    return rows.map((r) => ({ stationId: r.station_id, mmsi: r.mmsi, start: Number(r.start), last: Number(r.last), lat: r.lat, lon: r.lon }));
  }

  async fixes(stationId: number, mmsi: number, from: number, to: number): Promise<DerivedFix[]> {
    const rows = await this.db
      .selectFrom("positions")
      .select(["mmsi", "time", "station_id", "lat", "lon", "sog", "nav_status"])
      .where("mmsi", "=", mmsi)
      .where("time", ">=", from)
      .where("time", "<=", to)
      .where("station_id", "=", stationId)
      .orderBy("time")
      .execute();
    return rows.map((r) => ({ mmsi: r.mmsi, time: Number(r.time), stationId: r.station_id, lat: r.lat, lon: r.lon, sog: r.sog, navStatus: r.nav_status }));
  }

  async vesselsHeard(from: number, to: number): Promise<{ stationId: number; mmsi: number }[]> {
    const rows = await this.db.selectFrom("positions").select(["station_id", "mmsi"]).distinct().where("time", ">=", from).where("time", "<", to).orderBy("station_id").orderBy("mmsi").execute();
    return rows.map((r) => ({ stationId: r.station_id, mmsi: r.mmsi }));
  }

  async clear(from: number, to: number, states: boolean): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom("port_calls").where("arrival", ">=", from).where("arrival", "<", to).execute();
      await trx.deleteFrom("gate_crossings").where("time", ">=", from).where("time", "<", to).execute();
      await trx.deleteFrom("gate_coverage").where("hour", ">=", from - 3_600_000).where("hour", "<", to).execute();
      // Identity changes are recorded at ingest, from reports no recompute can read again.
      await trx.deleteFrom("vessel_events").where("start", ">=", from).where("start", "<", to).where("type", "!=", "identity_change").execute();
      await trx.deleteFrom("slow_episodes").where("start", ">=", from).where("start", "<", to).execute();
      await trx.deleteFrom("station_heard").where("hour", ">=", from - 3_600_000).where("hour", "<", to).execute();
      if (states) await trx.deleteFrom("derived_state").execute();
    });
  }
}

function toCall(r: PortCallsTable): StoredPortCall {
  const detail = JSON.parse(r.detail) as Omit<StoredPortCall, "id" | "stationId" | "mmsi" | "unlocode" | "arrival" | "departure" | "confidence" | "version" | "updatedAt">;
  return {
    ...detail,
    id: r.id,
    stationId: r.station_id,
    mmsi: r.mmsi,
    unlocode: r.unlocode,
    arrival: Number(r.arrival),
    departure: r.departure === null ? null : Number(r.departure),
    confidence: r.confidence as 2 | 3 | 4,
    version: r.version,
    updatedAt: Number(r.updated_at),
  };
}

function toEvent(r: VesselEventsTable): StoredVesselEvent {
  const detail = JSON.parse(r.detail) as { details: Record<string, unknown>; inputs: StoredVesselEvent["inputs"] };
  return {
    id: r.id,
    type: r.type as VesselEventType,
    stationId: r.station_id,
    mmsi: r.mmsi,
    start: Number(r.start),
    end: r.end === null ? null : Number(r.end),
    lat: r.lat,
    lon: r.lon,
    counterpartMmsi: r.counterpart_mmsi,
    details: detail.details,
    method: r.method,
    version: r.version,
    confidence: r.confidence,
    inputs: detail.inputs,
    updatedAt: Number(r.updated_at),
  };
}
