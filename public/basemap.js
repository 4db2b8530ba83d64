/* The land basemap every map shares: bundled Natural Earth land on a canvas, from this service only (no tiles, no CDN). */
/* global fetch, L, window */
"use strict";
(function () {
  // Land under everything else, on a canvas in a pane that lets clicks through (terra-draw
  // takes a click only when its target is the map container itself, never the canvas).
  // The pane's z-index is in site.css (the CSP blocks the <style> Leaflet plugins inject).
  // World views get the 1:110m land; closer in, the 1:50m land, fetched when first needed.
  window.mdsBasemap = function (map, figure) {
    const pane = map.createPane("basemap");
    pane.style.pointerEvents = "none";
    const renderer = L.canvas({ pane: "basemap" });
    const style = { color: "#6b7f5e", weight: 0.6, fillColor: "#e8e4d4", fillOpacity: 1 };
    const layers = { small: null, large: null };
    const load = (which, url) =>
      fetch(url)
        .then((r) => r.json())
        .then((land) => {
          layers[which] = L.geoJSON(land, { interactive: false, renderer, style });
          show();
        });
    const show = () => {
      const want = map.getZoom() >= 4 ? "large" : "small";
      const other = want === "large" ? "small" : "large";
      if (!layers[want]) {
        if (layers[want] === null) {
          layers[want] = false;
          load(want, want === "large" ? "/assets/geo/land-50m.json" : "/assets/geo/land-110m.json").catch(() => {
            layers[want] = null;
          });
        }
        return;
      }
      if (!map.hasLayer(layers[want])) layers[want].addTo(map);
      if (layers[other] && map.hasLayer(layers[other])) map.removeLayer(layers[other]);
      figure.setAttribute("data-basemap", want);
    };
    map.on("zoomend", show);
    show();
  };
})();
