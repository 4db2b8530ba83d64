import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { html, raw } from "../shared/html.ts";
import { sendPage } from "./context.ts";
import { renderDoc, type RenderedDoc } from "./markdown-doc.ts";

/**
 * `/docs/<name>`: each Markdown file directly in docs/ (errors, webhooks, mcp, oauth and the
 * rest) as a page in the site's layout, and `/docs/<name>.md` as the Markdown itself, which
 * stays the source. Read and rendered once at start: the docs ship with the service.
 */
export function registerDocsPages(app: FastifyInstance, docsDir: string): void {
  const names = readdirSync(docsDir).filter((f) => /^[a-z0-9-]+\.md$/.test(f)).map((f) => f.slice(0, -3));
  const served = new Set(names);
  const docs = new Map<string, { markdown: string; page: RenderedDoc }>();
  for (const name of names) {
    const markdown = readFileSync(join(docsDir, `${name}.md`), "utf8");
    docs.set(name, { markdown, page: renderDoc(markdown, served) });
  }

  app.get("/docs/:file", async (req, reply) => {
    const { file } = req.params as { file: string };
    const markdown = file.endsWith(".md");
    const doc = docs.get(markdown ? file.slice(0, -3) : file);
    if (!doc) return sendPage(req, reply, { title: "Not found" }, html`<p id="problem">There is no document called “${file}”. The <a href="/docs/api">API reference</a> links to every one.</p>`, 404);
    if (markdown) return reply.header("cache-control", "public, max-age=3600").type("text/markdown; charset=utf-8").send(doc.markdown);
    return sendPage(req, reply, { title: doc.page.title || file }, html`<p class="hint">Also as <a href="/docs/${file}.md">Markdown</a>.</p><div class="doc">${raw(doc.page.html)}</div>`);
  });
}
