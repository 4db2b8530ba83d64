import { z } from "zod";
import { defineOperation } from "./operation.ts";
import { stationHealth, StationHealthSchema } from "./projections/station-health.ts";

export const meStations = defineOperation({
  id: "me.stations",
  method: "GET",
  path: "/api/v1/me/stations",
  summary: "Your receiving stations and their ingest health",
  description:
    "The account's receiving stations with what each has delivered: lines, messages by type, positions stored, lines rejected (bad checksums and other reasons), " +
    "dropped fragments, failed authentications (datagrams signed for the station with a wrong key) and UDP datagrams lost. Free.",
  auth: "key",
  input: z.strictObject({}),
  output: { data: z.array(StationHealthSchema) },
  responseType: "my_stations",
  apiVersion: "1",
  cost: 0,
  async run(ctx) {
    const p = ctx.principal;
    if (p.kind === "anonymous") throw new Error("me.stations runs only for an account's credentials");
    const stations = await ctx.services.stations.listStations(p.accountId);
    const counters = new Map((await ctx.services.positions.counters(stations.map((s) => s.id))).map((c) => [c.stationId, c]));
    return { data: stations.map((s) => stationHealth(s, counters.get(s.id))) };
  },
});
