/**
 * Sea lanes of the northern Baltic, as polylines of [lat, lon] waypoints in open water
 * between real ports, drawn by hand from the charted main routes (the Gulf of Finland
 * traffic separation schemes, the Baltic main route west of Hiiumaa, the Åland Sea, the
 * Bothnian Sea) at a few-nautical-mile accuracy. They keep simulated vessels on the water
 * where the sample's vessels really sail; they are not for navigation.
 *
 * Each lane runs port to port; a vessel joins it at the waypoint ahead of its real position
 * in its real direction of travel, sails to the end, stays in port a while and returns.
 */
export interface Lane {
  name: string;
  /** [lat, lon] in degrees, first and last in or off a port. */
  points: [number, number][];
}

export const LANES: Lane[] = [
  {
    // Gulf of Finland main route, Hanko approaches to St Petersburg (Kronstadt channel).
    name: "Gulf of Finland: Hanko - St Petersburg",
    points: [
      [59.5, 22.0],
      [59.6, 23.2],
      [59.72, 24.2],
      [59.82, 25.2],
      [59.92, 26.2],
      [59.95, 26.7],
      [59.92, 27.2],
      [59.9, 28.0],
      [59.95, 28.8],
      [59.98, 29.45],
      [59.93, 30.2],
    ],
  },
  {
    name: "Helsinki - Tallinn",
    points: [
      [60.145, 24.96],
      [60.08, 24.98],
      [59.9, 24.92],
      [59.65, 24.8],
      [59.46, 24.76],
    ],
  },
  {
    // Through the archipelago's southern edge, Mariehamn call, then the Gulf of Finland to Helsinki.
    name: "Kapellskär - Mariehamn - Helsinki",
    points: [
      [59.72, 19.12],
      [59.78, 19.45],
      [60.02, 19.88],
      [59.92, 20.4],
      [59.7, 21.3],
      [59.68, 22.3],
      [59.74, 23.2],
      [59.92, 24.2],
      [60.06, 24.82],
      [60.145, 24.96],
    ],
  },
  {
    // Baltic main route: the Gulf of Finland entrance, west of Hiiumaa, towards Gotland.
    name: "Gulf of Finland entrance - Gotland",
    points: [
      [59.5, 22.0],
      [59.3, 21.4],
      [58.95, 21.1],
      [58.5, 20.7],
      [58.0, 20.3],
      [57.6, 20.0],
    ],
  },
  {
    name: "Åland Sea - Bothnian Sea - Vaasa",
    points: [
      [59.8, 19.3],
      [60.35, 19.25],
      [61.0, 19.6],
      [61.7, 19.95],
      [62.4, 20.3],
      [62.95, 21.0],
      [63.08, 21.5],
    ],
  },
  {
    // Stockholm's southern approach (off Landsort) across to the Baltic main route.
    name: "Landsort - Gotland north",
    points: [
      [58.7, 17.95],
      [58.6, 18.6],
      [58.45, 19.4],
      [58.2, 19.9],
      [58.0, 20.3],
    ],
  },
  {
    name: "Gotland north - Åland Sea",
    points: [
      [58.3, 19.8],
      [58.8, 19.55],
      [59.3, 19.5],
      [59.8, 19.3],
    ],
  },
  {
    // Through the Northern Quark east of Holmöarna, then the Bothnian Bay to Oulu.
    name: "Vaasa - Kvarken - Oulu",
    points: [
      [62.95, 21.0],
      [63.5, 20.95],
      [64.0, 21.6],
      [64.6, 22.8],
      [64.95, 24.3],
      [65.02, 25.3],
    ],
  },
  {
    name: "Bothnian Bay - Luleå",
    points: [
      [64.6, 22.8],
      [65.2, 22.55],
      [65.55, 22.25],
    ],
  },
  {
    name: "Gulf of Finland - Kotka",
    points: [
      [59.95, 26.7],
      [60.2, 26.85],
      [60.44, 26.95],
    ],
  },
  {
    name: "Gulf of Finland - Ust-Luga",
    points: [
      [59.9, 28.0],
      [59.8, 28.2],
      [59.68, 28.38],
    ],
  },
  {
    name: "Gulf of Finland - Primorsk",
    points: [
      [59.95, 28.8],
      [60.15, 28.75],
      [60.34, 28.68],
    ],
  },
  {
    name: "Gulf of Finland - Muuga",
    points: [
      [59.82, 25.2],
      [59.6, 25.0],
      [59.5, 25.0],
    ],
  },
];

/** Nautical miles between two points (equirectangular: fine over a few hundred miles). */
export function distanceNm(a: [number, number], b: [number, number]): number {
  const k = Math.cos((((a[0] + b[0]) / 2) * Math.PI) / 180);
  const dy = (b[0] - a[0]) * 60;
  const dx = (b[1] - a[1]) * 60 * k;
  return Math.hypot(dx, dy);
}

/** Initial course from a to b, degrees 0..360. */
export function bearing(a: [number, number], b: [number, number]): number {
  const k = Math.cos((((a[0] + b[0]) / 2) * Math.PI) / 180);
  const deg = (Math.atan2((b[1] - a[1]) * k, b[0] - a[0]) * 180) / Math.PI;
  return (deg + 360) % 360;
}

/** The point `nm` nautical miles from p on course `course`. */
export function move(p: [number, number], course: number, nm: number): [number, number] {
  const rad = (course * Math.PI) / 180;
  const lat = p[0] + (nm * Math.cos(rad)) / 60;
  const lon = p[1] + (nm * Math.sin(rad)) / (60 * Math.cos((p[0] * Math.PI) / 180));
  return [lat, lon];
}

export interface LaneFit {
  lane: Lane;
  /** Index of the segment's start point. */
  segment: number;
  /** +1 when travelling in point order, -1 against it. */
  direction: 1 | -1;
  distanceNm: number;
}

/** The lane nearest to a position, with the direction matching the course, if within `maxNm`. */
export function nearestLane(p: [number, number], course: number, maxNm: number): LaneFit | null {
  let best: LaneFit | null = null;
  for (const lane of LANES) {
    for (let i = 0; i + 1 < lane.points.length; i++) {
      const a = lane.points[i]!;
      const b = lane.points[i + 1]!;
      const d = segmentDistanceNm(p, a, b);
      if (d <= maxNm && (best === null || d < best.distanceNm)) {
        const diff = Math.abs(((bearing(a, b) - course + 540) % 360) - 180);
        best = { lane, segment: i, direction: diff <= 90 ? 1 : -1, distanceNm: d };
      }
    }
  }
  return best;
}

function segmentDistanceNm(p: [number, number], a: [number, number], b: [number, number]): number {
  // Project in a local plane scaled to nautical miles.
  const k = Math.cos((p[0] * Math.PI) / 180);
  const ax = a[1] * 60 * k;
  const ay = a[0] * 60;
  const bx = b[1] * 60 * k;
  const by = b[0] * 60;
  const px = p[1] * 60 * k;
  const py = p[0] * 60;
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}
