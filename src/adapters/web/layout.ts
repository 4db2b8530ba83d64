import { type Html, html } from "../shared/html.ts";

/**
 * The one page frame: skip link, header with the site's navigation, one <main> per page,
 * stylesheet and script as files (the CSP allows nothing inline).
 */
export interface PageOptions {
  title: string;
  /** The signed-in user's e-mail, and the CSRF token for the sign-out form. */
  user?: { email: string; csrf: string } | null;
  /** The navigation entry to mark as current. */
  current?: string;
  /** Extra scripts (paths under /assets/) and stylesheets for this page. */
  scripts?: string[];
  styles?: string[];
}

/** The site's name: the end of every page title, and the home page's whole title. */
const SITE_NAME = "Maritime Data Service";

const NAV: [string, string][] = [
  ["/account", "Account"],
  ["/account/keys", "API keys"],
  ["/account/webhooks", "Webhooks"],
  ["/account/stations", "Stations"],
  ["/account/zones", "Zones and follows"],
  ["/account/watchlists", "Watchlists"],
];

/**
 * The search box of every page's header: a plain GET form to /search (works without script);
 * site.js adds suggestions as one types, from /search/suggestions.
 */
const HEADER_SEARCH = html`<form method="get" action="/search" role="search" class="site-search" aria-label="Site search"><label for="site-q" class="visually-hidden">Search vessels, ports, flags and companies</label><input id="site-q" name="q" type="search" maxlength="100" required placeholder="Vessel, IMO, MMSI, port, flag" autocomplete="off" list="site-q-suggestions"><datalist id="site-q-suggestions"></datalist> <button type="submit">Search</button></form>`;

export function layout(o: PageOptions, body: Html): string {
  const nav = o.user
    ? html`<nav aria-label="Account"><ul>${NAV.map(([href, label]) => html`<li><a href="${href}"${o.current === href ? html` aria-current="page"` : ""}>${label}</a></li>`)}</ul></nav>
      <form method="post" action="/logout" class="signout"><input type="hidden" name="_csrf" value="${o.user.csrf}"><span>${o.user.email}</span> <button type="submit" id="sign-out">Sign out</button></form>`
    : html`<nav aria-label="Site"><ul><li><a href="/docs/api">API docs</a></li><li><a href="/login">Sign in</a></li></ul></nav>`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${o.title === SITE_NAME ? SITE_NAME : `${o.title} - ${SITE_NAME}`}</title>
<link rel="icon" href="/favicon.ico" sizes="32x32">
<link rel="stylesheet" href="/assets/site.css">
${(o.styles ?? []).map((s) => html`<link rel="stylesheet" href="${s}">`)}
<script src="/assets/site.js" defer></script>
${(o.scripts ?? []).map((s) => html`<script src="${s}" defer></script>`)}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header><a class="brand" href="/">Maritime Data Service</a>${HEADER_SEARCH}${nav}</header>
<main id="main" tabindex="-1">
<h1>${o.title}</h1>
${body}
</main>
<footer><p><a href="/docs/api">API docs</a> · <a href="/api/v1/openapi.json">OpenAPI</a> · <a href="/docs/errors">Errors</a> · <a href="/docs/webhooks">Webhooks</a> · <a href="/docs/mcp">MCP</a> · <a href="/docs/oauth">OAuth</a></p></footer>
</body>
</html>`.text;
}

/** A message above a form: an error (role=alert, read out at once) or a notice. */
export function flash(kind: "error" | "notice", text: string | null | undefined): Html {
  if (!text) return html``;
  return kind === "error" ? html`<p class="error" role="alert" id="form-error">${text}</p>` : html`<p class="notice" role="status">${text}</p>`;
}

/** A one-field form that creates a named thing (a key, a station): the field is `name`, up to 100 characters. */
export function nameForm(f: { action: string; csrf: string; inputId: string; buttonId: string; button: string }): Html {
  return html`<form method="post" action="${f.action}" class="inline">
<input type="hidden" name="_csrf" value="${f.csrf}">
<label for="${f.inputId}">Name</label> <input id="${f.inputId}" name="name" required maxlength="100">
<button type="submit" id="${f.buttonId}">${f.button}</button>
</form>`;
}

/** A secret shown once, with a copy button (script adds the button's behaviour). */
export function shownOnce(label: string, id: string, secret: string): Html {
  return html`<div class="secret" role="status">
<p><strong>${label}</strong> It is shown this once: copy it now.</p>
<p><code id="${id}">${secret}</code> <button type="button" class="copy" data-copy="${id}" aria-label="Copy ${label.toLowerCase()}">Copy</button></p>
</div>`;
}

export function when(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? "never" : new Date(ms).toISOString().replace("T", " ").replace(/\.\d{3}Z$/, " UTC");
}
