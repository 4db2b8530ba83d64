import { ARCHIVE_SLOT_MS, archiveBoundary } from "../../domain/tracks/window.ts";
import type { ArchivePoint, ArchiveStore, RecentPositions, StoredFix, TimePartitions } from "../../interfaces/tracks.ts";

export interface CompactionReport {
  /** Vessels whose old fixes were moved. */
  vessels: number;
  /** Fixes read from the main store (and deleted from it). */
  fixes: number;
  /** Points written to the archive (one per vessel, station and 10-minute slot). */
  points: number;
  /** Time partitions read through and dropped whole (PostgreSQL). */
  partitions: number;
  /** Everything before this time (epoch ms) is in the archive now. */
  cutoff: number;
  ms: number;
}

/** Fixes read per statement: bounded, so the main store's other users wait at most one short statement. */
const READ_CHUNK = 5_000;

/** The last fix of each (vessel, station, slot): what the archive keeps. */
export function downsample(fixes: readonly StoredFix[]): ArchivePoint[] {
  const last = new Map<string, StoredFix>();
  for (const f of fixes) {
    const key = `${f.mmsi}:${f.stationId}:${Math.floor(f.time / ARCHIVE_SLOT_MS)}`;
    const had = last.get(key);
    if (!had || f.time > had.time) last.set(key, f);
  }
  return [...last.values()].map((f) => ({ mmsi: f.mmsi, time: f.time, stationId: f.stationId, lat: f.lat, lon: f.lon, sog: f.sog, cog: f.cog }));
}

/**
 * Each partition older than the cutoff: read through in key order, downsampled into the
 * archive, then dropped. A run stopped before the drop leaves the partition, and the next
 * run writes the same slots again (the archive keeps one point per slot), so nothing is
 * lost or doubled.
 */
async function compactPartitions(partitions: TimePartitions, archive: ArchiveStore, cutoff: number, report: CompactionReport, signal: AbortSignal | undefined): Promise<void> {
  for (const partition of await partitions.before(cutoff)) {
    if (signal?.aborted) return;
    let after: { mmsi: number; time: number; stationId: number } | null = null;
    for (;;) {
      const fixes = await partitions.rows(partition, after, READ_CHUNK);
      if (fixes.length === 0) break;
      const points = downsample(fixes);
      await archive.upsert(points);
      report.fixes += fixes.length;
      report.points += points.length;
      const last = fixes.at(-1)!;
      after = { mmsi: last.mmsi, time: last.time, stationId: last.stationId };
      if (fixes.length < READ_CHUNK) break;
      if (signal?.aborted) return;
    }
    await partitions.drop(partition);
    report.partitions++;
  }
}

/**
 * Moves every fix older than 90 days (to the start of its 10-minute slot) from the main
 * store to the archive, downsampled. Per vessel and chunk: write the archive first, then
 * delete what was written from the main store. A run that stops between the two leaves
 * the fixes in both stores, and the next run writes the same slots again (the archive key
 * is the slot), so nothing is lost or doubled. The archive being down stops the run
 * before anything is deleted.
 */
export async function compact(tracks: RecentPositions, archive: ArchiveStore, now: number, options: { signal?: AbortSignal } = {}): Promise<CompactionReport> {
  const started = performance.now();
  // Whole slots only: a slot is never split between the two stores.
  const cutoff = Math.floor(archiveBoundary(now) / ARCHIVE_SLOT_MS) * ARCHIVE_SLOT_MS;
  const report: CompactionReport = { vessels: 0, fixes: 0, points: 0, partitions: 0, cutoff, ms: 0 };
  // Whole partitions first: archived, then dropped, with no row deleted one by one.
  if (tracks.partitions) await compactPartitions(tracks.partitions, archive, cutoff, report, options.signal);
  // What is left: the partition holding the cutoff, and rows outside every partition.
  for (const mmsi of await tracks.mmsis()) {
    if (options.signal?.aborted) break;
    let moved = false;
    for (;;) {
      const fixes = await tracks.oldest(mmsi, cutoff, READ_CHUNK);
      if (fixes.length === 0) break;
      const points = downsample(fixes);
      await archive.upsert(points);
      const last = fixes.at(-1)!;
      await tracks.deleteThrough(mmsi, last.time, last.stationId);
      report.fixes += fixes.length;
      report.points += points.length;
      moved = true;
      // node:sqlite blocks while a statement runs; let requests and ingest in between.
      await new Promise((resolve) => setImmediate(resolve));
      if (fixes.length < READ_CHUNK) break;
    }
    if (moved) report.vessels++;
  }
  return done();

  function done(): CompactionReport {
    report.ms = Math.round(performance.now() - started);
    return report;
  }
}
