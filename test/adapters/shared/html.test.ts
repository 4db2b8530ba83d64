import assert from "node:assert/strict";
import { test } from "node:test";
import { html, raw } from "../../../src/adapters/shared/html.ts";

test("interpolated text is escaped, nested templates and raw() are not", () => {
  const name = `<script>alert("x")</script> & 'y'`;
  const inner = html`<b>${name}</b>`;
  const page = html`<p title="${name}">${inner}${raw("<hr>")}${[1, html`<i>2</i>`, null, undefined, false]}</p>`;
  assert.equal(
    page.text,
    `<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;"><b>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;</b><hr>1<i>2</i></p>`,
  );
});
