/**
 * The names the MCP Apps extension (SEP-1865, `io.modelcontextprotocol/ui`, stable 2026-01-26)
 * fixes. The official `@modelcontextprotocol/ext-apps` package exports the same three values;
 * it is not a dependency because it peer-depends on the SDK's client package (and with it
 * jose, cross-spawn, eventsource...), which the server would then ship for three strings.
 * test/adapters/mcp/vessel-app.test.ts checks these against the package's own exports.
 */

/** The extension's identifier, the key under `capabilities.extensions`. */
export const EXTENSION_ID = "io.modelcontextprotocol/ui";

/** The MIME type of an app's HTML: hosts render a resource as an app only with this type. */
export const RESOURCE_MIME_TYPE = "text/html;profile=mcp-app";

/** The flat tool `_meta` key older hosts read instead of `_meta.ui.resourceUri` (deprecated by the spec, still read by hosts). */
export const RESOURCE_URI_META_KEY = "ui/resourceUri";

/**
 * What the server declares under `capabilities.extensions`: that it serves apps of this type.
 * Declared to every client: a 2025-era client's `tools/list` arrives without the capabilities
 * its `initialize` declared (stateless serving), the tool list is cached as public, and a host
 * without app support ignores both this and the tools' `_meta` and shows the text content.
 */
export const UI_EXTENSION_CAPABILITY = { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } };
