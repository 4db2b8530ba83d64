/*
 * The host side of the MCP Apps protocol (SEP-1865) for the vessel app's browser test, run in
 * the test's harness page: one sandboxed iframe holding the app's HTML (srcdoc, scripts only,
 * the CSP a host builds from the resource's metadata), the handshake answered with a host
 * context, then the tool's arguments and result. Every message the app sends is kept in
 * `window.appMessages`, so the test can read what it reported (its size, above all). With
 * `serverTools` the host passes the app's `tools/call` on to the server, through
 * `window.callServerTool` (the test's SDK client, exposed to the page).
 */
/* global document, window */
"use strict";
window.startHost = function ({ html, args, result, theme, csp, serverTools }) {
  window.appMessages = [];
  const frame = document.createElement("iframe");
  frame.title = "Vessel app";
  frame.setAttribute("sandbox", "allow-scripts");
  frame.style.cssText = "width:600px;height:500px;border:1px solid #888";
  const post = (message) => frame.contentWindow.postMessage({ jsonrpc: "2.0", ...message }, "*");
  window.addEventListener("message", (event) => {
    if (event.source !== frame.contentWindow) return;
    const msg = event.data;
    window.appMessages.push(msg);
    if (msg.method === "ui/initialize") {
      post({
        id: msg.id,
        result: {
          protocolVersion: "2026-01-26",
          hostInfo: { name: "mds-test-host", version: "1.0.0" },
          hostCapabilities: serverTools ? { serverTools: {} } : {},
          hostContext: { theme, displayMode: "inline", containerDimensions: { maxHeight: 500, width: 600 }, platform: "web" },
        },
      });
    } else if (msg.method === "tools/call" && serverTools) {
      window.callServerTool(msg.params).then(
        (r) => post({ id: msg.id, result: r }),
        (e) => post({ id: msg.id, error: { code: -32603, message: String(e) } }),
      );
    } else if (msg.method === "ui/notifications/initialized") {
      // The host sends nothing to the app before `initialized` (the spec's rule).
      post({ method: "ui/notifications/tool-input", params: { arguments: args } });
      post({ method: "ui/notifications/tool-result", params: result });
    }
  });
  frame.srcdoc = html.replace("<head>", `<head><meta http-equiv="Content-Security-Policy" content="${csp}">`);
  document.querySelector("main").append(frame);
  /** A later tool result to the same frame (a host re-running the tool). */
  window.sendResult = (next) => post({ method: "ui/notifications/tool-result", params: next });
  /** A host-context change, as a host sends it when the user switches theme. */
  window.changeTheme = (next) => frame.contentWindow.postMessage({ jsonrpc: "2.0", method: "ui/notifications/host-context-changed", params: { theme: next } }, "*");
};
