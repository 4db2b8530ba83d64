import MarkdownIt, { type Token } from "markdown-it";

/**
 * A Markdown document of docs/ as HTML for the site's layout. The Markdown stays the source:
 * markdown-it renders it with raw HTML off (whatever a doc holds is escaped, and the CSP's
 * no-inline rules cannot be broken by a doc), and adds what a page needs:
 *
 * - every heading gets the id GitHub gives it (lowercase words joined by hyphens), so links
 *   written for the repository (`vessels.md#vessel-type-and-flag`) land on the page too, and a
 *   visible link to itself;
 * - every row of a table whose first column is headed `code` gets that code as its id: the
 *   `docs` link of every API error (`/docs/errors#invalid_parameter`) lands on its row;
 * - links to another doc (`webhooks.md#limits`) go to that doc's page (`/docs/webhooks#limits`).
 */
export interface RenderedDoc {
  /** The document's own top heading (the page's title); the body leaves it out. */
  title: string;
  html: string;
}

/** GitHub's heading slug: lowercase, punctuation dropped, spaces to hyphens. */
export function headingSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .trim()
    .replace(/\s/g, "-");
}

const md = new MarkdownIt({ html: false, linkify: false, typographer: false });

/** Ids for headings, with -1, -2... for repeats, as GitHub numbers them. */
md.core.ruler.push("heading_ids", (state) => {
  const seen = new Map<string, number>();
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const open = tokens[i]!;
    if (open.type !== "heading_open") continue;
    const inline = tokens[i + 1]!;
    const base = headingSlug(inline.children?.map((c) => c.content).join("") ?? inline.content);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    const id = n === 0 ? base : `${base}-${n}`;
    open.attrSet("id", id);
    const link = new state.Token("link_open", "a", 1);
    link.attrSet("href", `#${id}`);
    link.attrSet("class", "anchor");
    link.attrSet("aria-label", `Link to this section: ${inline.content}`);
    const mark = new state.Token("text", "", 0);
    mark.content = "#";
    inline.children = [...(inline.children ?? []), link, mark, new state.Token("link_close", "a", -1)];
  }
});

/** Rows of a table whose first column is headed `code` carry their code as id. */
md.core.ruler.push("code_row_ids", (state) => {
  const tokens = state.tokens;
  let codeTable = false;
  let firstCell = false;
  let row: Token | null = null;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type === "table_open") codeTable = false;
    else if (t.type === "tr_open") {
      row = t;
      firstCell = true;
    } else if ((t.type === "th_open" || t.type === "td_open") && firstCell) {
      firstCell = false;
      const text = tokens[i + 1]!.content.replace(/`/g, "").trim();
      if (t.type === "th_open") codeTable = text === "code";
      else if (codeTable && row && /^[a-z][a-z0-9_]*$/.test(text)) row.attrSet("id", text);
    }
  }
});

/** Links between docs go to their pages; `served` names the docs that have one. */
function docLinks(served: ReadonlySet<string>) {
  return (tokens: Token[]) => {
    for (const t of tokens) {
      if (t.type === "inline") docLinks(served)(t.children ?? []);
      if (t.type !== "link_open") continue;
      const href = String(t.attrGet("href") ?? "");
      const m = /^(?:\.\/)?([a-z0-9-]+)\.md(#[^\s]*)?$/i.exec(href);
      if (m && served.has(m[1]!)) t.attrSet("href", `/docs/${m[1]}${m[2] ?? ""}`);
    }
  };
}

export function renderDoc(markdown: string, served: ReadonlySet<string>): RenderedDoc {
  const env = {};
  const tokens = md.parse(markdown, env);
  docLinks(served)(tokens);
  // The first top-level heading is the page's <h1> (the layout writes it): it is taken out of the body.
  let title = "";
  const h1 = tokens.findIndex((t) => t.type === "heading_open" && t.tag === "h1");
  if (h1 >= 0) {
    title = tokens[h1 + 1]!.content;
    tokens.splice(h1, 3);
  }
  return { title, html: md.renderer.render(tokens, md.options, env) };
}
