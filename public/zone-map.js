/* Draw a zone on a map; the polygon is written into the GeoJSON textarea, which the form posts. Without script the textarea alone works. */
/* global document, L, terraDraw, terraDrawLeafletAdapter, window */
"use strict";
(function () {
  const figure = document.getElementById("zone-map-figure");
  const textarea = document.getElementById("zone-geometry");
  if (!figure || !textarea || typeof L === "undefined" || typeof terraDraw === "undefined" || !window.mdsBasemap) return;
  figure.hidden = false;
  const map = L.map("zone-map", { worldCopyJump: true }).setView([52, 4], 5);

  window.mdsBasemap(map, figure);

  const draw = new terraDraw.TerraDraw({
    adapter: new terraDrawLeafletAdapter.TerraDrawLeafletAdapter({ lib: L, map }),
    modes: [new terraDraw.TerraDrawPolygonMode()],
  });
  draw.start();
  draw.setMode("polygon");
  draw.on("finish", (id) => {
    const feature = draw.getSnapshot().find((f) => f.id === id);
    if (feature) textarea.value = JSON.stringify(feature.geometry);
  });
})();
