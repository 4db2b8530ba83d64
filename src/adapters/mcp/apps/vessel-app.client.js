/*
 * The vessel app inside a host's sandboxed frame (MCP Apps, SEP-1865). It speaks the
 * extension's JSON-RPC over postMessage with its parent: `ui/initialize` (the host answers with
 * its context: theme, style variables), then `ui/notifications/initialized`; the host then sends
 * the tool's arguments and result. It draws the result's structured content and nothing else:
 * no request leaves the frame (Leaflet and the land are in the document).
 */
/* global document, window, L, ResizeObserver */
"use strict";
(function () {
  const PROTOCOL_VERSION = "2026-01-26";
  const app = document.getElementById("app");
  const host = window.parent;
  let nextId = 1;
  const pending = new Map();
  let context = {};
  /** What the host offers (`ui/initialize`): with `serverTools` the app may ask for the track. */
  let hostCapabilities = {};
  /** The vessel id the answer is about, as the tools take it (`7406784`, `mmsi-...`). */
  let vesselId = null;
  let map = null;
  let land = null;
  /** The map's markers with what they stand for, restyled when the theme changes. */
  const markers = [];

  const send = (message) => host.postMessage({ jsonrpc: "2.0", ...message }, "*");
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      send({ id, method, params });
    });
  const notify = (method, params) => send({ method, params });

  /** An element with attributes and children; text goes in as text, never as markup. */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? "" : String(v));
    for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c instanceof window.Node ? c : String(c));
    return node;
  }
  const day = (iso) => (typeof iso === "string" ? iso.slice(0, 10) : "");
  const when = (iso) => (typeof iso === "string" ? iso.slice(0, 16).replace("T", " ") + " UTC" : "open");
  const words = (id) => String(id).replaceAll("_", " ");

  // ---- theme: the host's light or dark, and its style variables where it gives them ----
  function applyContext(update) {
    context = { ...context, ...update };
    const root = document.documentElement;
    const theme = context.theme === "dark" ? "dark" : "light";
    root.dataset.theme = theme;
    root.style.colorScheme = theme;
    const vars = context.styles && context.styles.variables;
    if (vars) for (const [k, v] of Object.entries(vars)) if (k.startsWith("--") && typeof v === "string") root.style.setProperty(k, v);
    if (land) land.setStyle(landStyle());
    for (const m of markers) m.marker.setStyle(markerStyle(m.last));
  }
  const cssVar = (name) => window.getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  const landStyle = () => ({ color: cssVar("--map-coast"), weight: 0.6, fillColor: cssVar("--map-land"), fillOpacity: 1 });
  // The last position a ring, events dots: told apart by shape as well as colour.
  const markerStyle = (last) => (last ? { radius: 7, color: cssVar("--map-last"), weight: 2, fillColor: cssVar("--map-last-fill"), fillOpacity: 1 } : { radius: 5, color: cssVar("--map-event"), weight: 2, fillColor: cssVar("--map-event"), fillOpacity: 1 });

  // ---- size: the host sizes a flexible frame from what the app reports ----
  let lastSize = "";
  function reportSize() {
    const width = Math.ceil(document.documentElement.scrollWidth);
    const height = Math.ceil(document.documentElement.scrollHeight);
    const key = `${width}x${height}`;
    if (key === lastSize) return;
    lastSize = key;
    notify("ui/notifications/size-changed", { width, height });
  }

  function status(text) {
    app.replaceChildren(el("p", { id: "status", role: "status" }, text));
    app.removeAttribute("aria-busy");
  }

  // ---- the parts of the answer ----
  function flagAndType(data) {
    const listed = (data.particulars && data.particulars.listed) || [];
    const flags = listed.filter((l) => l.flag).map((l) => `${l.flag} (per the ${l.source} list)`);
    const own = data.particulars && data.particulars.shipType;
    const types = own ? [own] : listed.filter((l) => l.vesselType).map((l) => `${l.vesselType} (per the ${l.source} list)`);
    return { flag: [...new Set(flags)].join("; ") || "not known", type: [...new Set(types)].join("; ") || "not known" };
  }

  function statusBlock(data) {
    const active = (data.sanctions || []).filter((s) => s.active);
    const coverage = data.sanctionsCoverage || [];
    const notChecked = coverage.filter((c) => c.status === "missing" || c.status === "extract" || c.stale);
    const block = el("section", { id: "sanctions", "aria-labelledby": "sanctions-h" });
    if (active.length > 0) {
      block.append(
        el("h2", { id: "sanctions-h", class: "badge sanctioned" }, "Sanctioned"),
        el(
          "ul",
          { class: "lists" },
          active.map((s) => el("li", {}, el("strong", {}, s.listName || s.list), ` (${s.list}${s.program ? `, programme ${s.program}` : ""}), ${s.listedAt ? `listed ${day(s.listedAt)}` : `in this service's copy since ${day(s.firstSeenAt)}`}; matched on ${s.matchedOn.toUpperCase()}`)),
        ),
      );
    } else {
      const past = (data.sanctions || []).length;
      block.append(el("h2", { id: "sanctions-h", class: "badge clear" }, past > 0 ? "Not sanctioned now (was listed)" : "Not on the lists checked"));
    }
    const checked = coverage.filter((c) => !notChecked.includes(c));
    if (checked.length > 0) block.append(el("p", { class: "asof" }, "Lists as of: ", checked.map((c) => `${c.list} ${c.asOf ? day(c.asOf) : "date unknown"}`).join(", "), "."));
    if (notChecked.length > 0) block.append(el("p", { class: "asof warn" }, "Not checked in full: ", notChecked.map((c) => `${c.list} (${c.status}${c.asOf ? `, ${day(c.asOf)}` : ""})`).join(", "), ". An absent listing there is no clearance."));
    return block;
  }

  function riskBlock(risk) {
    if (!risk || !Array.isArray(risk.indicators)) return null;
    const rows = risk.indicators.map((i) =>
      el(
        "tr",
        { "data-indicator": i.id, class: i.count > 0 ? "hit" : "" },
        el("th", { scope: "row" }, words(i.id)),
        el("td", {}, String(i.count)),
        el("td", {}, i.latest ? day(i.latest) : ""),
        el("td", {}, i.notJudged ? `not fully judged: ${words(i.notJudged.reason)}${i.notJudged.sources.length ? ` (${i.notJudged.sources.join(", ")})` : ""}` : i.lists && i.lists.length ? i.lists.join(", ") : ""),
      ),
    );
    return el(
      "section",
      { id: "risk", "aria-labelledby": "risk-h" },
      el("h2", { id: "risk-h" }, "Risk indicators"),
      el("table", {}, el("caption", {}, `From ${day(risk.window.from)} to ${day(risk.window.to)}; building blocks, not a score`), el("thead", {}, el("tr", {}, ["Indicator", "Count", "Latest", "Note"].map((h) => el("th", { scope: "col" }, h)))), el("tbody", {}, rows)),
    );
  }

  function eventsBlock(events, total) {
    if (events.length === 0) return el("section", { id: "events", "aria-labelledby": "events-h" }, el("h2", { id: "events-h" }, "Events"), el("p", {}, "No events in the answer."));
    return el(
      "section",
      { id: "events", "aria-labelledby": "events-h" },
      el("h2", { id: "events-h" }, "Events"),
      el(
        "table",
        {},
        el("caption", {}, total > events.length ? `The latest ${events.length} of ${total}` : `${events.length} event${events.length === 1 ? "" : "s"}`),
        el("thead", {}, el("tr", {}, ["Type", "Start", "End", "Where"].map((h) => el("th", { scope: "col" }, h)))),
        el(
          "tbody",
          {},
          events.map((e) => el("tr", {}, el("td", {}, words(e.type)), el("td", {}, when(e.start)), el("td", {}, e.end === null ? "open" : when(e.end)), el("td", {}, e.position ? `${e.position.lat.toFixed(3)}, ${e.position.lon.toFixed(3)}` : "withheld"))),
        ),
      ),
    );
  }

  function withheldBlock(withheld) {
    if (!Array.isArray(withheld) || withheld.length === 0) return null;
    return el(
      "section",
      { id: "withheld", "aria-labelledby": "withheld-h" },
      el("h2", { id: "withheld-h" }, "Withheld"),
      el("ul", {}, withheld.map((w) => el("li", {}, `${w.section}${w.rows ? ` (${w.rows} rows)` : ""}: sources ${(w.sources || []).join(", ") || "unknown"} (${words(w.reason)})`))),
    );
  }

  function attributionBlock(sc) {
    const texts = [...(sc.attribution || []), "Land: Natural Earth (public domain); map drawn with Leaflet."];
    return el("footer", { id: "attribution" }, el("h2", { class: "small" }, "Sources"), el("ul", {}, texts.map((t) => el("li", {}, t))));
  }

  // ---- the map: the bundled land, the last position and the events with a position ----
  function mapBlock(points) {
    const figure = el("figure", { id: "map-figure" }, el("div", { class: "map", id: "map" }), el("figcaption", {}, points.length > 0 ? `Map: ${points.map((p) => p.label).join("; ")}. The same places are listed below.` : "Map: no position in the answer (none heard, or withheld)."));
    return { figure, draw: () => drawMap(figure, points) };
  }

  /**
   * The track is in neither answer the app draws; where the host passes tool calls on to the
   * server, a button asks for the last day of it (get_vessel_track, 1 credit: the button says
   * so, and nothing is called without the click).
   */
  function trackControl() {
    if (!hostCapabilities.serverTools || !vesselId) return null;
    const note = el("p", { id: "track-status", role: "status" });
    const button = el("button", { type: "button", id: "track-button" }, "Draw the last 24 hours of track (get_vessel_track, 1 credit)");
    button.addEventListener("click", () => {
      button.disabled = true;
      note.textContent = "Asking for the track.";
      request("tools/call", { name: "get_vessel_track", arguments: { id: vesselId, hours: 24 } })
        .then((r) => {
          const sc = r && r.structuredContent;
          if (!sc || r.isError || !Array.isArray(sc.data)) {
            note.textContent = ((r && r.content) || []).map((c) => c.text || "").join(" ") || "No track came back.";
            button.disabled = false;
            return;
          }
          const drawn = drawTrack(sc.data);
          note.textContent = drawn > 0 ? `Track drawn: ${drawn} points from ${when(sc.data[0].time)} to ${when(sc.data[drawn - 1].time)}.` : "No position in the last 24 hours (none heard, or withheld).";
          reportSize();
        })
        .catch((e) => {
          note.textContent = `The host did not pass the call on: ${e.message}`;
          button.disabled = false;
        });
    });
    return el("div", { id: "track" }, button, note);
  }

  /** The track as a line, unwrapped at the antimeridian so it does not cross the whole map. */
  function drawTrack(points) {
    if (!map || points.length === 0) return 0;
    const latlngs = [];
    let prev = null;
    for (const p of points) {
      let x = p.lon;
      if (prev !== null) while (x - prev > 180) x -= 360;
      if (prev !== null) while (prev - x > 180) x += 360;
      prev = x;
      latlngs.push([p.lat, x]);
    }
    const line = L.polyline(latlngs, { renderer: L.canvas(), color: cssVar("--map-track"), weight: 3 }).addTo(map);
    map.fitBounds(line.getBounds(), { padding: [20, 20], maxZoom: 6 });
    document.getElementById("map-figure").setAttribute("data-track", String(points.length));
    return points.length;
  }

  function drawMap(figure, points) {
    map = L.map(figure.querySelector(".map"), { attributionControl: false, zoomSnap: 0.5, worldCopyJump: false });
    const renderer = L.canvas();
    const bounds = [];
    for (const p of points) {
      const last = p.kind === "last";
      const marker = L.circleMarker([p.lat, p.lon], { renderer, ...markerStyle(last) }).bindTooltip(p.label).addTo(map);
      markers.push({ marker, last });
      bounds.push([p.lat, p.lon]);
    }
    if (bounds.length === 1) map.setView(bounds[0], 5);
    // No closer than zoom 6: the bundled land is the 1:110m one, too coarse for a harbour.
    else if (bounds.length > 1) map.fitBounds(bounds, { padding: [20, 20], maxZoom: 6 });
    else map.setView([20, 0], 1);
    try {
      const geo = JSON.parse(document.getElementById("land").textContent);
      land = L.geoJSON(geo, { interactive: false, renderer: L.canvas({ pane: "tilePane" }), style: landStyle() }).addTo(map);
      figure.setAttribute("data-land", "drawn");
    } catch {
      figure.setAttribute("data-land", "missing");
    }
    figure.setAttribute("data-drawn", String(points.length));
  }

  function pointsOfEvents(events) {
    return events.filter((e) => e.position).map((e) => ({ lat: e.position.lat, lon: e.position.lon, kind: "event", label: `${words(e.type)} from ${when(e.start)}` }));
  }

  // ---- one answer ----
  function render(result) {
    // A host may send a later result to the same frame: the old map goes with the old answer.
    if (map) map.remove();
    map = null;
    land = null;
    markers.length = 0;
    const sc = result && result.structuredContent;
    if (!sc || result.isError || (sc.type !== "vessel" && sc.type !== "vessel_events")) {
      // An error or an answer the app does not draw: the text the model got, as it is.
      const text = ((result && result.content) || []).filter((c) => c.type === "text").map((c) => c.text).join("\n") || "No answer to show.";
      app.replaceChildren(el("h1", {}, result && result.isError ? "The call failed" : "Answer"), el("pre", { class: "text" }, text));
      app.removeAttribute("aria-busy");
      return;
    }
    const parts = [];
    let points = [];
    if (sc.type === "vessel") {
      const d = sc.data || {};
      const id = d.identity || {};
      const ft = flagAndType(d);
      parts.push(
        el(
          "header",
          { id: "dossier" },
          el("h1", {}, sc.name || id.name || "Unnamed vessel"),
          el(
            "dl",
            {},
            [
              ["IMO", sc.imo ?? id.imo ?? "not known"],
              ["MMSI", sc.mmsi ?? id.mmsi ?? "not known"],
              ["Flag", ft.flag],
              ["Type", ft.type],
            ].map(([k, v]) => el("div", {}, el("dt", {}, k), el("dd", {}, String(v)))),
        ),
        statusBlock(d),
        ),
      );
      const latest = (d.events && d.events.latest) || [];
      points = pointsOfEvents(latest);
      if (d.lastPosition) points.push({ lat: d.lastPosition.lat, lon: d.lastPosition.lon, kind: "last", label: `Last position ${when(d.lastPosition.time)}` });
      vesselId = typeof sc.api === "string" ? decodeURIComponent(sc.api.split("/").pop()) : vesselId;
      const m = mapBlock(points);
      parts.push(m.figure, trackControl(), riskBlock(d.risk), eventsBlock(latest, (d.events && d.events.count) || 0));
      parts.push(withheldBlock(sc.withheld), attributionBlock(sc));
      app.replaceChildren(...parts.filter(Boolean));
      m.draw();
    } else {
      const rows = Array.isArray(sc.data) ? sc.data : [];
      const v = rows[0] && rows[0].vessel;
      parts.push(el("header", { id: "dossier" }, el("h1", {}, v ? v.name || `MMSI ${v.mmsi}` : "Vessel events"), v ? el("dl", {}, el("div", {}, el("dt", {}, "IMO"), el("dd", {}, String(v.imo ?? "not known"))), el("div", {}, el("dt", {}, "MMSI"), el("dd", {}, String(v.mmsi)))) : null, el("p", {}, "Sanctions status and risk indicators are in get_vessel's answer.")));
      points = pointsOfEvents(rows);
      const m = mapBlock(points);
      parts.push(m.figure, trackControl(), eventsBlock(rows, rows.length), withheldBlock(sc.withheld), attributionBlock(sc));
      app.replaceChildren(...parts.filter(Boolean));
      m.draw();
    }
    app.removeAttribute("aria-busy");
    reportSize();
  }

  // ---- the protocol ----
  window.addEventListener("message", (event) => {
    if (event.source !== host) return;
    const msg = event.data;
    if (!msg || msg.jsonrpc !== "2.0") return;
    if (msg.id !== undefined && msg.method === undefined) {
      const p = pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id);
      if (msg.error) p.reject(new Error(msg.error.message || "error"));
      else p.resolve(msg.result);
      return;
    }
    switch (msg.method) {
      case "ui/notifications/tool-input": {
        const id = msg.params && msg.params.arguments && msg.params.arguments.id;
        if (typeof id === "string" || typeof id === "number") vesselId = String(id);
        if (app.getAttribute("aria-busy")) status("Looking the vessel up.");
        return;
      }
      case "ui/notifications/tool-result":
        render(msg.params);
        return;
      case "ui/notifications/tool-cancelled":
        status("The call was cancelled.");
        return;
      case "ui/notifications/host-context-changed":
        applyContext(msg.params || {});
        return;
      case "ui/resource-teardown":
      case "ping":
        if (msg.id !== undefined) send({ id: msg.id, result: {} });
        return;
      default:
        if (msg.id !== undefined) send({ id: msg.id, error: { code: -32601, message: `Method not found: ${msg.method}` } });
    }
  });

  if (typeof ResizeObserver === "function") new ResizeObserver(reportSize).observe(document.body);

  request("ui/initialize", { appInfo: { name: "maritime-data-service-vessel", version: "1.0.0" }, appCapabilities: { availableDisplayModes: ["inline"] }, protocolVersion: PROTOCOL_VERSION })
    .then((result) => {
      hostCapabilities = (result && result.hostCapabilities) || {};
      applyContext((result && result.hostContext) || {});
      notify("ui/notifications/initialized", {});
    })
    .catch(() => status("The host did not answer the app's handshake; the text answer has the same data."));
})();
