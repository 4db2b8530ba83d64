/* Maps of the public pages: a vessel's track, last position and events, a port, a wreck or a waterway's gate, drawn from the figure's data-map on the bundled land. Without script the figure stays hidden; the page's tables and lists say the same. */
/* global document, L, window */
"use strict";
(function () {
  if (typeof L === "undefined" || !window.mdsBasemap) return;
  for (const figure of document.querySelectorAll("figure.entity-map[data-map]")) {
    let content;
    try {
      content = JSON.parse(figure.getAttribute("data-map"));
    } catch {
      continue;
    }
    figure.hidden = false;
    const map = L.map(figure.querySelector(".map"), { worldCopyJump: false, zoomSnap: 0.5 });
    const bounds = [];
    let drawn = 0;
    const track = content.track || [];
    if (track.length > 0) {
      // Unwrap at the antimeridian: each longitude within 180 degrees of the one before, so the line does not cross the whole map.
      const latlngs = [];
      let prev = null;
      for (const [lon, lat] of track) {
        let x = lon;
        if (prev !== null) while (x - prev > 180) x -= 360;
        if (prev !== null) while (prev - x > 180) x += 360;
        prev = x;
        latlngs.push([lat, x]);
      }
      const line = L.polyline(latlngs, { color: "#0b5d8a", weight: 3, className: "track-line" }).addTo(map);
      bounds.push(...latlngs);
      drawn += 1;
      if (latlngs.length === 1) line.setStyle({ weight: 6 });
    }
    for (const l of content.lines || []) {
      // A gate is short and drawn where it lies: no unwrapping, but its ends must be valid positions.
      const latlngs = (l.coordinates || []).filter((c) => Array.isArray(c) && Number.isFinite(c[0]) && Number.isFinite(c[1])).map(([lon, lat]) => [lat, lon]);
      if (latlngs.length < 2) continue;
      L.polyline(latlngs, { color: "#9b1c1c", weight: 4, className: "gate-line" }).bindTooltip(l.label).addTo(map);
      bounds.push(...latlngs);
      drawn += 1;
    }
    for (const p of content.points || []) {
      let lon = p.lon;
      // A last position drawn next to an unwrapped track sits on the same copy of the world.
      if (bounds.length > 0) {
        const ref = bounds[bounds.length - 1][1];
        while (lon - ref > 180) lon -= 360;
        while (ref - lon > 180) lon += 360;
      }
      L.circleMarker([p.lat, lon], { radius: 7, color: "#9b1c1c", weight: 2, fillColor: "#ffffff", fillOpacity: 1 }).bindTooltip(p.label).addTo(map);
      bounds.push([p.lat, lon]);
      drawn += 1;
    }
    for (const e of content.events || []) {
      L.circleMarker([e.lat, e.lon], { radius: 5, color: "#7a4b00", weight: 2, fillColor: "#f2b233", fillOpacity: 1, className: "event-mark event-" + e.type }).bindTooltip(e.label).addTo(map);
      bounds.push([e.lat, e.lon]);
      drawn += 1;
    }
    if (bounds.length === 1 || (bounds.length > 1 && L.latLngBounds(bounds).getNorthEast().equals(L.latLngBounds(bounds).getSouthWest()))) map.setView(bounds[0], 6);
    else if (bounds.length > 1) map.fitBounds(bounds, { padding: [24, 24], maxZoom: 10 });
    else map.setView([20, 0], 1);
    // The land after the view is set: the scale decides which land file is fetched.
    window.mdsBasemap(map, figure);
    figure.setAttribute("data-drawn", String(drawn));
  }
})();
