import { join } from "node:path";
import { readSource } from "../read-source.ts";
import { parsePorts } from "./parse-ports.ts";
import type { PortRecord } from "./port-record.ts";

/** Bundled files, relative to the datasets directory. */
export const BUNDLED_PORT_FILES = {
  unlocode2018: "unlocode/unece_unlocode_2018-1_raw.csv.gz",
  unlocode2024: "unlocode/unlocode_geoapify_2024_port-relevant.csv.gz",
  wpi: "ports/wpi_UpdatedPub150.csv.gz",
  subdivisions: "unlocode/unece_subdivision-codes.csv",
  naturalEarth: "ports/ne_10m_ports.geojson",
} as const;

export async function loadBundledPorts(datasetsDir: string): Promise<PortRecord[]> {
  const [unlocode2018, unlocode2024, wpi, subdivisions, naturalEarth] = await Promise.all([
    readSource(join(datasetsDir, BUNDLED_PORT_FILES.unlocode2018)),
    readSource(join(datasetsDir, BUNDLED_PORT_FILES.unlocode2024)),
    readSource(join(datasetsDir, BUNDLED_PORT_FILES.wpi)),
    readSource(join(datasetsDir, BUNDLED_PORT_FILES.subdivisions)),
    readSource(join(datasetsDir, BUNDLED_PORT_FILES.naturalEarth)),
  ]);
  return parsePorts({ unlocode2018, unlocode2024, wpi, subdivisions, naturalEarth });
}
