import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import pg from "pg";
import { PROJECT_ROOT } from "../../src/main.ts";
import type { PositionFix, VesselIdentityUpdate } from "../../src/interfaces/positions.ts";
import { type Engine, startTestService, type TestService } from "./service.ts";

export const MIN = 60_000;
export const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;

export interface VesselTestService extends TestService {
  engine: Engine;
}

/**
 * A test service with the bundled data, and on PostgreSQL an archive database of its own
 * (ARCHIVE_DATABASE_URL), so the archive runs on the engine under test too.
 * `deniedSources`: source ids the sources file does not clear for the API.
 */
export async function startVesselService(engine: Engine, options: { deniedSources?: string[] } = {}): Promise<VesselTestService> {
  const env: Record<string, string> = {};
  const cleanups: (() => Promise<void> | void)[] = [];
  if (options.deniedSources) {
    const dir = mkdtempSync(join(tmpdir(), "mds-vessel-sources-"));
    const file = JSON.parse(readFileSync(join(PROJECT_ROOT, "config/sources.json"), "utf8"));
    for (const id of options.deniedSources) {
      const s = file.sources.find((x: { id: string }) => x.id === id);
      if (s) s.permissions.api = false;
      else file.sources.push({ id, name: id, attribution: id, license: "not cleared", permissions: { api: false, redistribution: false, commercial: false } });
    }
    writeFileSync(join(dir, "sources.json"), JSON.stringify(file));
    env.SOURCES_FILE = join(dir, "sources.json");
    cleanups.push(() => rmSync(dirname(env.SOURCES_FILE!), { recursive: true, force: true }));
  }
  if (engine === "postgres") {
    const admin = process.env.DATABASE_URL!;
    const name = `mds_archive_${randomBytes(6).toString("hex")}`;
    await adminQuery(admin, `CREATE DATABASE ${name}`);
    const url = new URL(admin);
    url.pathname = `/${name}`;
    env.ARCHIVE_DATABASE_URL = url.toString();
    cleanups.push(() => adminQuery(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
  const t = await startTestService({ engine, env });
  const close = t.close.bind(t);
  return Object.assign(t, {
    engine,
    async close() {
      await close();
      for (const c of cleanups) await c();
    },
  });
}

async function adminQuery(url: string, text: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

/** A station of a fresh account on `plan` (with a key), optionally shared with everyone. */
export async function station(t: TestService, plan: "pro" | "team" | "scale" | "developer" = "pro", shared = false) {
  const { key, accountId, keyId } = await t.key(plan);
  const { station: s } = await t.service.services.stations.createStation(accountId, shared ? "shared mast" : "private mast");
  // Shared with every use granted (redistribution, commercial), as stations were shared before owners chose grants.
  if (shared) await t.service.services.stations.updateStation(s.id, { shared: true, redistribution: true, commercial: true });
  return { id: s.id, key, keyId, accountId };
}

/** A position on a straight course: one step east per fix, so points are easy to tell apart. */
export function fix(stationId: number, mmsi: number, time: number, navStatus: number | null = 0): PositionFix {
  return { mmsi, time, stationId, lat: 55 + ((time / MIN) % 1000) * 1e-4, lon: 10 + ((time / MIN) % 997) * 1e-4, sog: 12.3, cog: 81.2, heading: 81, navStatus };
}

/** Writes fixes of one vessel every `stepMs` in [from, to) through the ingest store, as ingest would. */
export async function writeTrack(t: TestService, stationId: number, mmsi: number, from: number, to: number, stepMs: number): Promise<number> {
  const all: PositionFix[] = [];
  for (let time = from; time < to; time += stepMs) all.push(fix(stationId, mmsi, time));
  await writeFixes(t, all);
  return all.length;
}

export async function writeFixes(t: TestService, fixes: PositionFix[]): Promise<void> {
  for (let at = 0; at < fixes.length; at += 5_000) {
    const chunk = fixes.slice(at, at + 5_000);
    const latest = new Map<string, PositionFix>();
    for (const f of chunk) {
      const k = `${f.stationId}:${f.mmsi}`;
      if ((latest.get(k)?.time ?? -1) < f.time) latest.set(k, f);
    }
    await t.service.services.positions.writeBatch({ positions: chunk, latest: [...latest.values()], identities: [], counters: [], heard: [] });
  }
}

/** A static report as a station stored it (the identity table), then a registry refresh. */
export async function identity(t: TestService, update: Omit<VesselIdentityUpdate, "updatedAt"> & { updatedAt?: number }, refresh = true): Promise<void> {
  await t.service.services.positions.writeBatch({
    positions: [],
    latest: [],
    identities: [{ updatedAt: t.clock.now(), ...update }],
    counters: [],
    heard: [],
  });
  if (refresh) await t.service.services.vessels.refresh(t.clock.now());
}

/** Credits the account has used this month. */
export async function used(t: TestService, k: { accountId: string; keyId: string }): Promise<number> {
  const { billingPeriod } = await import("../../src/operations/billing-period.ts");
  await t.service.services.ledger.flush?.();
  return (await t.service.services.ledger.usage(k.accountId, k.keyId, billingPeriod(t.clock.now()))).used;
}

/** The IMO with this six-digit stem and its check digit. */
export function imoOf(stem: number): number {
  const s = String(stem).padStart(6, "0");
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += Number(s[i]) * (7 - i);
  return stem * 10 + (sum % 10);
}
