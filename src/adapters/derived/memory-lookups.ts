import type { DerivedFix } from "../../domain/derived/fix.ts";
import { heardCell } from "../../domain/derived/gap-detector.ts";
import type { BehaviourLookups, DerivedCommit, StoredEpisode } from "../../interfaces/derived.ts";

/**
 * The behaviour lookups over data held in memory: for the benchmarks and for detector tests
 * that run apply() without a database. `add` what ingest would have stored, `record` what a
 * commit would have written.
 */
export class MemoryLookups implements BehaviourLookups {
  readonly #fixes = new Map<string, DerivedFix[]>();
  readonly #heard = new Set<string>();
  readonly #episodes = new Map<string, StoredEpisode>();

  add(fixes: readonly DerivedFix[]): void {
    for (const f of fixes) {
      const key = `${f.stationId}:${f.mmsi}`;
      const list = this.#fixes.get(key);
      if (list) list.push(f);
      else this.#fixes.set(key, [f]);
      this.#heard.add(`${f.stationId}:${Math.floor(f.time / 3_600_000) * 3_600_000}:${heardCell(f.lat, f.lon)}`);
    }
    for (const list of this.#fixes.values()) list.sort((a, b) => a.time - b.time);
  }

  record(commit: Pick<DerivedCommit, "episodes" | "heard">): void {
    for (const e of commit.episodes) this.#episodes.set(`${e.stationId}:${e.mmsi}:${e.start}`, e);
    for (const h of commit.heard) this.#heard.add(`${h.stationId}:${h.hour}:${h.cell}`);
  }

  async heardHours(stationId: number, cells: readonly number[], hours: readonly number[]): Promise<Set<number>> {
    return new Set(hours.filter((h) => cells.some((c) => this.#heard.has(`${stationId}:${h}:${c}`))));
  }

  async episodesNear(stationId: number, from: number, to: number, box: { minLat: number; maxLat: number; minLon: number; maxLon: number }): Promise<StoredEpisode[]> {
    return [...this.#episodes.values()].filter((e) => e.stationId === stationId && e.last >= from && e.start <= to && e.lat >= box.minLat && e.lat <= box.maxLat && e.lon >= box.minLon && e.lon <= box.maxLon);
  }

  async fixes(stationId: number, mmsi: number, from: number, to: number): Promise<DerivedFix[]> {
    return (this.#fixes.get(`${stationId}:${mmsi}`) ?? []).filter((f) => f.time >= from && f.time <= to);
  }
}
