import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { encodePositionA, encodePositionB, encodeStatic, encodeStaticB_A, encodeStaticB_B, toSentences } from "../../../domain/ais/encode.ts";
import { bearing, distanceNm, move, nearestLane } from "./lanes.ts";

/** The bundled sample (datasets/ais_positions/PROVENANCE.md). */
export const SAMPLE_FILE = "ais_positions/digitraffic_baltic_sample_2025-12-11.csv";

export interface SeedVessel {
  mmsi: number;
  name: string;
  lat: number;
  lon: number;
  sog: number;
  cog: number;
  heading: number | null;
  navStatus: number;
  shipType: number;
  destination: string;
  /** Packed Digitraffic ETA (month << 16 | day << 11 | hour << 6 | minute). */
  eta: number;
  /** Metres. */
  draught: number | null;
}

/** Reads the sample's rows as seeds. */
export function loadSeeds(file: string): SeedVessel[] {
  const rows = parse(readFileSync(file, "utf8"), { columns: true, skip_empty_lines: true }) as Record<string, string>[];
  return rows.map((r) => {
    const heading = Number(r.heading);
    const draught = Number(r.draught);
    return {
      mmsi: Number(r.mmsi),
      name: r.name ?? "",
      lat: Number(r.latitude),
      lon: Number(r.longitude),
      sog: Number(r.sog),
      cog: Number(r.cog),
      heading: heading >= 0 && heading < 360 ? heading : null,
      navStatus: Number(r.nav_stat),
      shipType: Number(r.ship_type),
      destination: r.destination ?? "",
      eta: Number(r.eta),
      draught: draught > 0 ? draught / 10 : null,
    };
  });
}

type Point = [number, number];

interface SimVessel {
  seed: SeedVessel;
  /** Class B (pleasure craft, sailing): types 18 and 24 instead of 1 and 5. */
  classB: boolean;
  pos: Point;
  sog: number;
  cog: number;
  navStatus: number;
  /** Waypoints still ahead, in travel order; empty when at rest. */
  route: Point[];
  /** The whole lane (or shuttle) in travel order, to turn around on at its end. */
  path: Point[];
  /** Until when the vessel stays in port (epoch ms). */
  restUntil: number;
  cruiseKn: number;
  lastMove: number;
  nextPosition: number;
  nextStatic: number;
  /** Lanes end in ports (a rest there); shuttles just turn. */
  kind: "lane" | "shuttle" | "rest";
}

export interface FleetOptions {
  /** How many vessels of the sample to run (spread over the sample); default all. */
  vessels?: number;
  /** Put NMEA 4.0 tag blocks (`c:` time, `s:` station) on the first sentence of each message, as AIS-catcher can. */
  tagBlocks?: boolean;
  /** Tag-block `s:` value. */
  stationTag?: string;
  /** Deterministic jitter. */
  seed?: number;
}

/** xorshift32: deterministic, so a run can be repeated. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 4294967296;
  };
}

/** Reporting intervals of M.1371-5 Table 1 (Class A by speed; Class B CS 30 s), in ms. */
function positionInterval(v: SimVessel): number {
  if (v.sog < 0.5) return 180_000;
  if (v.classB) return 30_000;
  if (v.sog > 23) return 2_000;
  if (v.sog > 14) return 6_000;
  return 10_000;
}

const STATIC_INTERVAL = 6 * 60_000;

/**
 * A fleet that sails the sample's vessels along the lanes and reports as a station would
 * hear them: position reports at the ITU intervals, static reports every six minutes (the
 * first within the first half minute, so identities show up at once).
 */
export class Fleet {
  readonly #vessels: SimVessel[] = [];
  readonly #tagBlocks: boolean;
  readonly #stationTag: string | undefined;
  readonly #random: () => number;
  #sequence = 0;

  constructor(seeds: SeedVessel[], start: number, options: FleetOptions = {}) {
    this.#tagBlocks = options.tagBlocks ?? true;
    this.#stationTag = options.stationTag;
    this.#random = rng(options.seed ?? 20251211);
    const want = Math.min(seeds.length, options.vessels ?? seeds.length);
    // Spread the chosen vessels over the sample (it is in MMSI order, not by area).
    const step = seeds.length / Math.max(1, want);
    for (let i = 0; i < want; i++) this.#vessels.push(this.#launch(seeds[Math.floor(i * step)]!, start));
  }

  get size(): number {
    return this.#vessels.length;
  }

  #launch(seed: SeedVessel, now: number): SimVessel {
    const classB = seed.shipType === 36 || seed.shipType === 37;
    const pos: Point = [seed.lat, seed.lon];
    const v: SimVessel = {
      seed,
      classB,
      pos,
      sog: 0,
      cog: seed.cog >= 0 && seed.cog < 360 ? seed.cog : 0,
      navStatus: seed.navStatus,
      route: [],
      path: [],
      restUntil: 0,
      cruiseKn: Math.min(25, Math.max(6, seed.sog)),
      lastMove: now,
      nextPosition: now + Math.floor(this.#random() * 10_000),
      nextStatic: now + Math.floor(this.#random() * 30_000),
      kind: "rest",
    };
    if (seed.sog >= 3) {
      const fit = nearestLane(pos, v.cog, 12);
      if (fit) {
        const pts = fit.direction === 1 ? fit.lane.points : [...fit.lane.points].reverse();
        const ahead = fit.direction === 1 ? fit.segment + 1 : fit.lane.points.length - 1 - fit.segment;
        v.path = pts;
        v.route = pts.slice(ahead);
        v.kind = "lane";
      } else {
        // Off the drawn lanes: shuttle along the vessel's own real course for a few miles,
        // which stays on the water it was really sailing.
        const end = move(pos, v.cog, 4);
        v.path = [pos, end];
        v.route = [end];
        v.kind = "shuttle";
      }
      v.sog = v.cruiseKn;
      v.navStatus = classB ? 15 : 0;
    } else {
      v.sog = 0;
      v.navStatus = seed.navStatus === 1 || seed.navStatus === 5 ? seed.navStatus : 5;
    }
    return v;
  }

  /** Moves every vessel to `now` and returns the NMEA lines due by then. */
  step(now: number): string[] {
    const out: string[] = [];
    for (const v of this.#vessels) {
      this.#advance(v, now);
      if (now >= v.nextPosition) {
        out.push(...this.#position(v, now));
        v.nextPosition = now + positionInterval(v);
      }
      if (now >= v.nextStatic) {
        out.push(...this.#static(v, now));
        v.nextStatic = now + STATIC_INTERVAL;
      }
    }
    return out;
  }

  #advance(v: SimVessel, now: number): void {
    const dtH = (now - v.lastMove) / 3_600_000;
    v.lastMove = now;
    if (v.path.length === 0) return;
    if (v.route.length === 0) {
      if (now < v.restUntil) return;
      // Leave port on the way back.
      v.path = [...v.path].reverse();
      v.route = v.path.slice(1);
      v.sog = v.cruiseKn;
      v.navStatus = v.classB ? 15 : 0;
    }
    let left = v.sog * dtH;
    while (left > 0 && v.route.length > 0) {
      const target = v.route[0]!;
      const d = distanceNm(v.pos, target);
      v.cog = bearing(v.pos, target);
      if (d > left) {
        v.pos = move(v.pos, v.cog, left);
        left = 0;
      } else {
        v.pos = target;
        left -= d;
        v.route.shift();
      }
    }
    if (v.route.length === 0) {
      // Arrived: moored for 10 to 30 minutes (shuttles just turn).
      const isLane = v.kind === "lane";
      v.restUntil = now + (isLane ? 600_000 + Math.floor(this.#random() * 1_200_000) : 0);
      if (isLane) {
        v.sog = 0;
        v.navStatus = v.classB ? 15 : 5;
      }
    }
  }

  #sentences(payload: { payload: string; fill: number }, now: number): string[] {
    this.#sequence = (this.#sequence + 1) % 10;
    return toSentences(payload, {
      channel: this.#random() < 0.5 ? "A" : "B",
      sequenceId: this.#sequence,
      ...(this.#tagBlocks ? { time: now, ...(this.#stationTag ? { station: this.#stationTag } : {}) } : {}),
    });
  }

  #position(v: SimVessel, now: number): string[] {
    const jitter = (this.#random() - 0.5) * 2;
    const heading = v.sog > 0.5 ? Math.round((v.cog + jitter + 360) % 360) : (v.seed.heading ?? null);
    const second = new Date(now).getUTCSeconds();
    const common = { mmsi: v.seed.mmsi, lat: v.pos[0], lon: v.pos[1], sog: v.sog > 0 ? v.sog + jitter * 0.2 : 0, cog: v.cog, heading, second };
    if (v.classB) return this.#sentences(encodePositionB(common), now);
    return this.#sentences(encodePositionA({ ...common, navStatus: v.navStatus, rot: v.sog > 0 ? Math.round(jitter * 4) : 0, accuracy: true }), now);
  }

  #static(v: SimVessel, now: number): string[] {
    const s = v.seed;
    if (v.classB) {
      const a = this.#sentences(encodeStaticB_A({ mmsi: s.mmsi, shipname: s.name }), now);
      const b = this.#sentences(encodeStaticB_B({ mmsi: s.mmsi, shipType: s.shipType, callsign: "", toBow: 0, toStern: 0, toPort: 0, toStarboard: 0 }), now);
      return [...a, ...b];
    }
    const eta = s.eta;
    return this.#sentences(
      encodeStatic({
        mmsi: s.mmsi,
        imo: null,
        callsign: "",
        shipname: s.name,
        shipType: s.shipType,
        toBow: 0,
        toStern: 0,
        toPort: 0,
        toStarboard: 0,
        etaMonth: (eta >> 16) & 15,
        etaDay: (eta >> 11) & 31,
        etaHour: (eta >> 6) & 31,
        etaMinute: eta & 63,
        draught: s.draught,
        destination: s.destination,
      }),
      now,
    );
  }
}
