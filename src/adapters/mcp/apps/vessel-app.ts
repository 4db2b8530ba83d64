import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { RESOURCE_URI_META_KEY } from "./ui-extension.ts";

/**
 * The vessel app: one `ui://` resource (MCP Apps, `io.modelcontextprotocol/ui`) that hosts with
 * app support render in a sandboxed frame next to a `get_vessel` or `get_vessel_events` answer.
 * It draws the tool result's structured content: the dossier header, the last position and
 * events on the bundled Natural Earth land, what was withheld, and the attribution.
 *
 * Everything it needs is inside the one HTML document (Leaflet, its stylesheet, the 1:110m
 * land, the app's own script and style), so it asks no origin for anything: its CSP metadata
 * declares no domain at all, and a host's restrictive default is all it needs.
 */

export const VESSEL_APP_URI = "ui://maritime-data-service/vessel.html";

/** The tools whose answers the app draws; every other tool stays text only. */
export const VESSEL_APP_TOOLS: ReadonlySet<string> = new Set(["get_vessel", "get_vessel_events"]);

/**
 * The tool `_meta` naming the app: `ui.resourceUri`, and the flat `ui/resourceUri` key that
 * hosts built before the nested form still read (the extension's helper writes both as well).
 */
export function vesselAppToolMeta(toolName: string): Record<string, unknown> | undefined {
  if (!VESSEL_APP_TOOLS.has(toolName)) return undefined;
  return { ui: { resourceUri: VESSEL_APP_URI }, [RESOURCE_URI_META_KEY]: VESSEL_APP_URI };
}

/**
 * The resource's UI metadata: no connect or resource domain (nothing is loaded from anywhere,
 * this service included), and a border, since the map has no frame of its own.
 */
export const VESSEL_APP_UI_META = { csp: { connectDomains: [] as string[], resourceDomains: [] as string[] }, prefersBorder: true };

const PROJECT_ROOT = resolve(import.meta.dirname, "../../../..");
const require = createRequire(import.meta.url);

/** Text for inside a <script> element: no sequence there may close it or open a comment. */
const inScript = (text: string) => text.replace(/<\/(script)/gi, "<\\/$1").replace(/<!--/g, "<\\!--");

let html: string | null = null;

/**
 * The app's HTML, put together once per process on first read: about 270 KB, most of it
 * Leaflet and the land. Leaflet's stylesheet loses its image references (layer control and
 * default marker icons, which the app does not use): in a frame they would point at the host.
 */
export function vesselAppHtml(): string {
  if (html !== null) return html;
  const leafletDir = dirname(require.resolve("leaflet"));
  const leafletJs = readFileSync(join(leafletDir, "leaflet.js"), "utf8");
  const leafletCss = readFileSync(join(leafletDir, "leaflet.css"), "utf8").replace(/url\(images\/[^)]*\)/g, "none");
  // The land as JSON text inside a data element: `<` escaped so no markup can end it early.
  const land = readFileSync(join(PROJECT_ROOT, "public/geo/land-110m.json"), "utf8").replace(/</g, "\\u003c");
  const appJs = readFileSync(join(import.meta.dirname, "vessel-app.client.js"), "utf8");
  const appCss = readFileSync(join(import.meta.dirname, "vessel-app.css"), "utf8");
  html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Vessel</title>
<style>${leafletCss.replace(/<\//g, "<\\/")}</style>
<style>${appCss.replace(/<\//g, "<\\/")}</style>
</head>
<body>
<main id="app" tabindex="0" aria-label="Vessel" aria-busy="true">
<p id="status" role="status">Waiting for the vessel answer.</p>
</main>
<script type="application/json" id="land">${land}</script>
<script>${inScript(leafletJs)}</script>
<script>${inScript(appJs)}</script>
</body>
</html>
`;
  return html;
}
