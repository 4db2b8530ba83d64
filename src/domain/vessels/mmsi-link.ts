/**
 * The source an IMO<->MMSI link is judged by, from the sources of the links that tie the
 * MMSI to the ship (in the order the caller has them): the first that is not a station (a
 * dataset or a sanctions list, the same for every caller), else the first one. One source
 * is named because a link several sources made stands when one of them is cleared; the
 * vessel page and the track both name it this way, so a ship's page and its track show or
 * withhold the same link. No sources, no link: the answer is empty.
 */
export function mmsiLinkSource(linkSources: readonly string[]): string[] {
  const chosen = linkSources.find((s) => !s.startsWith("station:")) ?? linkSources[0];
  return chosen === undefined ? [] : [chosen];
}
