/**
 * Maritime identifiers, parsed at the boundary. Each parser returns the
 * normalised value or null; callers turn null into a BAD_REQUEST naming the rule.
 */

/** IMO ship number: 7 digits, the last a check digit (ITU/IMO Resolution A.1078(28)). */
export function isValidImo(value: number | string): boolean {
  const s = String(value).trim();
  if (!/^[1-9]\d{6}$/.test(s)) return false;
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += Number(s[i]) * (7 - i);
  return sum % 10 === Number(s[6]);
}

/** Accepts "9074729", "IMO9074729", "IMO 9074729"; returns the number or null. */
export function parseImo(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const s = String(value).trim().replace(/^IMO[\s:-]*/i, "");
  return isValidImo(s) ? Number(s) : null;
}

/** MMSI: exactly 9 digits (ITU-R M.585). Leading zeros are legal (coast stations, groups). */
export function parseMmsi(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const s = String(value).trim();
  if (!/^\d{9}$/.test(s)) return null;
  const n = Number(s);
  return n > 0 ? n : null;
}

/** The Maritime Identification Digits of a ship station MMSI (first three digits). */
export function midOf(mmsi: number): number {
  return Math.floor(mmsi / 1_000_000);
}

export type VesselId = { kind: "imo"; imo: number } | { kind: "mmsi"; mmsi: number };

/** The vessel id of the API: a checksum-valid IMO, or `mmsi-` plus the 9-digit MMSI. */
export function parseVesselId(value: string): VesselId | null {
  const s = value.trim();
  const m = /^mmsi-(\d{9})$/i.exec(s);
  if (m) {
    const mmsi = parseMmsi(m[1]);
    return mmsi === null ? null : { kind: "mmsi", mmsi };
  }
  if (!/^\d{7}$/.test(s)) return null;
  const imo = parseImo(s);
  return imo === null ? null : { kind: "imo", imo };
}

export function formatVesselId(id: VesselId): string {
  return id.kind === "imo" ? String(id.imo) : `mmsi-${String(id.mmsi).padStart(9, "0")}`;
}

/** UN/LOCODE: two-letter country plus three characters [A-Z2-9]; case-insensitive in, upper-case out. */
export function parseUnlocode(value: string | null | undefined): string | null {
  if (!value) return null;
  const s = value.trim().replace(/\s+/g, "").toUpperCase();
  return /^[A-Z]{2}[A-Z2-9]{3}$/.test(s) ? s : null;
}

/** ISO 3166-1 alpha-2 shape; whether the code is assigned is for the data to say. */
export function parseIso2(value: string | null | undefined): string | null {
  if (!value) return null;
  const s = value.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(s) ? s : null;
}
