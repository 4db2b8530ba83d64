import { join } from "node:path";
import { SingleBar } from "cli-progress";
import { BUNDLED_DATASETS_DIR as DATASETS_DIR } from "./bundled-datasets-dir.ts";
import type { FlagRow, WreckRow } from "../../interfaces/reference.ts";
import { loadBundledEmissions, parseEmissions } from "./emissions.ts";
import { loadBundledFlags } from "./flags.ts";
import { companiesFromFleetList } from "../../domain/companies/from-fleet-list.ts";
import { BUNDLED_MARAD_FLEET_FILE, loadBundledMaradFleet, parseMaradFleet } from "./marad-fleet.ts";
import { BUNDLED_PORT_FILES, loadBundledPorts } from "./ports/bundled-ports.ts";
import { parsePorts } from "./ports/parse-ports.ts";
import type { ImportTarget } from "./import-target.ts";
import { type PortRecord, toPort } from "./ports/port-record.ts";
import { readSource } from "./read-source.ts";
import { loadBundledWrecks, parseWrecks, type WreckRecord } from "./wrecks.ts";

export interface ImportResult {
  id: string;
  rows: number;
  origin: string;
}

interface Dataset {
  description: string;
  /** Parses the bundled copy, or `file` (a path or URL of the official publication), into rows and stores them all or nothing. */
  run(target: ImportTarget, file: string | undefined, progress: Progress): Promise<{ rows: number; origin: string }>;
}

/** A bar on a terminal, nothing elsewhere. */
interface Progress {
  stage(name: string, total: number): void;
  tick(n?: number): void;
  done(): void;
}

function progressReporter(enabled: boolean, dataset: string): Progress {
  if (!enabled) return { stage() {}, tick() {}, done() {} };
  let bar: SingleBar | null = null;
  return {
    stage(name, total) {
      bar?.stop();
      bar = new SingleBar({ format: `${dataset} ${name} [{bar}] {value}/{total}`, stream: process.stderr, hideCursor: true });
      bar.start(total, 0);
    },
    tick(n = 1) {
      bar?.increment(n);
    },
    done() {
      bar?.stop();
      bar = null;
    },
  };
}

/** The source id every AWOIS record carries; an operator's own copy of AWOIS is the same source. */
const AWOIS_SOURCE = "noaa_awois";

function toWreckRow(w: WreckRecord): WreckRow {
  return { ...w, source: AWOIS_SOURCE };
}

export const DATASETS: Record<string, Dataset> = {
  ports: {
    description: "UN/LOCODE locations with the port function, with World Port Index coordinates and harbour facts, and Natural Earth coordinates where neither has any",
    async run(target, file, progress) {
      progress.stage("parse", 1);
      let records: PortRecord[];
      if (file) {
        // An official UNECE code list replaces the base; the bundled WPI still fills coordinates and harbour facts.
        const [unlocode2018, wpi, subdivisions, naturalEarth] = await Promise.all([
          readSource(file),
          readSource(join(DATASETS_DIR, BUNDLED_PORT_FILES.wpi)),
          readSource(join(DATASETS_DIR, BUNDLED_PORT_FILES.subdivisions)),
          readSource(join(DATASETS_DIR, BUNDLED_PORT_FILES.naturalEarth)),
        ]);
        records = parsePorts({ unlocode2018, wpi, subdivisions, naturalEarth });
      } else {
        records = await loadBundledPorts(DATASETS_DIR);
      }
      progress.tick();
      if (records.length === 0) throw new Error("ports: the input holds no port rows; nothing was changed");
      progress.stage("store", records.length);
      await target.services.ports.replaceAll(records.map(toPort), (n) => progress.tick(n));
      progress.done();
      return { rows: records.length, origin: file ?? "bundled UN/LOCODE 2018-1 + 2024 + WPI + Natural Earth" };
    },
  },
  flags: {
    description: "Flag registries: ISO 3166 countries, ITU Maritime Identification Digits, ITF flags of convenience",
    async run(target, file, progress) {
      if (file) throw new Error("flags: import from a file is not supported; the flags dataset is built from several bundled tables");
      progress.stage("parse", 1);
      const records = await loadBundledFlags(DATASETS_DIR);
      progress.tick();
      const rows: FlagRow[] = records.map((f) => ({ iso2: f.iso2, name: f.name, record: f as unknown as Record<string, unknown> }));
      await target.services.flags.replaceAll(rows);
      progress.done();
      return { rows: rows.length, origin: "bundled ISO 3166 + ITU MID + ITF FOC" };
    },
  },
  emissions: {
    description: "EU MRV annual CO2 emissions per ship (EMSA THETIS-MRV), linked into the vessel registry by IMO",
    async run(target, file, progress) {
      progress.stage("parse", 1);
      const parsed = file ? parseEmissions(await readSource(file)) : await loadBundledEmissions(DATASETS_DIR);
      progress.tick();
      if (parsed.records.length === 0) throw new Error("emissions: the input holds no report rows; nothing was changed");
      progress.stage("store", parsed.records.length);
      await target.services.vessels.replaceEmissions(parsed.records, (n) => progress.tick(n));
      progress.done();
      return { rows: parsed.records.length, origin: file ?? "bundled EU MRV 2018-2022 (EMSA THETIS-MRV)" };
    },
  },
  wrecks: {
    description: "NOAA AWOIS wrecks in US waters: position, depth, year sunk and survey history per record",
    async run(target, file, progress) {
      progress.stage("parse", 1);
      const records = file ? parseWrecks(await readSource(file)) : await loadBundledWrecks(DATASETS_DIR);
      progress.tick();
      if (records.length === 0) throw new Error("wrecks: the input holds no wreck rows; nothing was changed");
      progress.stage("store", records.length);
      await target.services.wrecks.replaceAll(records.map(toWreckRow), (n) => progress.tick(n));
      progress.done();
      return { rows: records.length, origin: file ?? "bundled NOAA AWOIS wrecks" };
    },
  },
  marad: {
    description: "MARAD U.S.-flag privately owned fleet: particulars and operators, linked into the vessel registry by IMO",
    async run(target, file, progress) {
      progress.stage("parse", 1);
      const parsed = file ? parseMaradFleet(await readSource(file)) : await loadBundledMaradFleet(DATASETS_DIR);
      progress.tick();
      if (parsed.records.length === 0) throw new Error("marad: the input holds no fleet rows; nothing was changed");
      // The list is dated in its file name (`..._2023-04-10.csv`): the day its rows were seen.
      const dated = /(\d{4}-\d{2}-\d{2})/.exec(file ?? BUNDLED_MARAD_FLEET_FILE)?.[1];
      await target.services.vessels.replaceFleet("marad", parsed.records, dated ? Date.parse(dated) : target.services.clock.now());
      // The operator column makes MARAD's companies: each operator with its ships.
      await target.services.companies.replaceSource("marad", companiesFromFleetList("marad", "Operator", parsed.records));
      progress.done();
      return { rows: parsed.records.length, origin: file ?? "bundled MARAD U.S.-flag fleet 2023-04-10" };
    },
  },
};

export async function importDataset(target: ImportTarget, id: string, file: string | undefined, options: { progress: boolean }): Promise<ImportResult> {
  const dataset = DATASETS[id];
  if (!dataset) throw new Error(`unknown dataset ${id}; known: ${Object.keys(DATASETS).join(", ")}`);
  const r = await dataset.run(target, file, progressReporter(options.progress, id));
  await target.datasets.record(id, r.rows, r.origin, target.services.clock.now());
  return { id, ...r };
}

/** On a first start every bundled dataset is imported, so a fresh data dir serves real data. */
export async function importMissingDatasets(target: ImportTarget, options: { progress: boolean }): Promise<ImportResult[]> {
  const done: ImportResult[] = [];
  for (const id of Object.keys(DATASETS)) {
    if (await target.datasets.get(id)) continue;
    done.push(await importDataset(target, id, undefined, options));
  }
  return done;
}
