import type { Kysely } from "kysely";
import type { Designation } from "../../../domain/sanctions/designation.ts";
import type { FlagFleet, FlagFleetReader } from "../../../interfaces/flag-fleet.ts";
import type { Database } from "../schema.ts";

/** The U.S.-flag fleet list: every row is a ship under the US flag. */
const FLEET_LIST_FLAGS: Record<string, string> = { marad: "US" };

type Tally = Map<string, FlagFleet>;

function entry(t: Tally, iso2: string): FlagFleet {
  let f = t.get(iso2);
  if (!f) t.set(iso2, (f = { bySource: [], designated: [] }));
  return f;
}

function count(f: FlagFleet, source: string, type: string | null): void {
  let s = f.bySource.find((x) => x.source === source);
  if (!s) f.bySource.push((s = { source, total: 0, byType: [] }));
  s.total++;
  const t = s.byType.find((x) => x.type === type);
  if (t) t.count++;
  else s.byType.push({ type, count: 1 });
}

/**
 * Ships per flag from the fleet lists and the sanctions lists' active designations (their
 * published flag). The sanctions tables keep each designation as JSON, so the tally is built
 * once per set of list versions and fleet rows, and kept until either changes.
 */
export class SqlFlagFleetReader implements FlagFleetReader {
  readonly #db: Kysely<Database>;
  #cache: { stamp: string; tally: Tally } | null = null;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async #stamp(): Promise<string> {
    const lists = await this.#db.selectFrom("sanctions_lists").select(["list", "version_id"]).orderBy("list").execute();
    const fleet = await this.#db.selectFrom("vessel_fleet").select(["source", (eb) => eb.fn.countAll<number>().as("n")]).groupBy("source").orderBy("source").execute();
    return JSON.stringify([lists, fleet.map((f) => [f.source, Number(f.n)])]);
  }

  async #build(): Promise<Tally> {
    const tally: Tally = new Map();
    const fleet = await this.#db.selectFrom("vessel_fleet").select(["source", "ship_type"]).orderBy("source").execute();
    for (const r of fleet) {
      const iso2 = FLEET_LIST_FLAGS[r.source];
      if (iso2) count(entry(tally, iso2), r.source, r.ship_type);
    }
    const designations = await this.#db.selectFrom("sanctions_designations").select(["list", "record"]).where("active", "=", 1).orderBy("list").orderBy("record_id").execute();
    for (const r of designations) {
      const d = JSON.parse(r.record) as Designation;
      if (!d.flagIso2) continue;
      const f = entry(tally, d.flagIso2);
      count(f, r.list, d.vesselType);
      let l = f.designated.find((x) => x.list === r.list);
      if (!l) f.designated.push((l = { list: r.list, vessels: [] }));
      l.vessels.push({ recordId: d.recordId, name: d.name, imos: d.imos, mmsis: d.mmsis });
    }
    for (const f of tally.values()) for (const s of f.bySource) s.byType.sort((a, b) => b.count - a.count || String(a.type).localeCompare(String(b.type)));
    return tally;
  }

  async of(iso2: string): Promise<FlagFleet> {
    const stamp = await this.#stamp();
    if (this.#cache?.stamp !== stamp) this.#cache = { stamp, tally: await this.#build() };
    return this.#cache.tally.get(iso2) ?? { bySource: [], designated: [] };
  }
}
