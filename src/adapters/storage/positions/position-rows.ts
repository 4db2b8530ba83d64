import type { PositionFix, VesselIdentity } from "../../../interfaces/positions.ts";
import type { PositionsTable, VesselIdentitiesTable } from "../schema.ts";

/**
 * The one mapper of each AIS record from its row (`positions`, `latest_positions`,
 * `vessel_identities`): the columns are the record's fields in snake case, so only the
 * renamed ones are named here.
 */
export function fixFromRow({ station_id, nav_status, ...same }: PositionsTable): PositionFix {
  return { ...same, stationId: station_id, navStatus: nav_status };
}

export function identityFromRow({ station_id, ship_type, to_bow, to_stern, to_port, to_starboard, updated_at, fields: _fields, ...same }: VesselIdentitiesTable): VesselIdentity {
  return { ...same, stationId: station_id, shipType: ship_type, toBow: to_bow, toStern: to_stern, toPort: to_port, toStarboard: to_starboard, updatedAt: updated_at };
}
