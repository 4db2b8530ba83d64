/**
 * The watchlists page without a browser, on each engine: a list made by pasting ids and by
 * uploading a CSV (multipart, as a form with a file input sends it), refused lines named
 * with their file and line and nothing added, the members sanctioned now against the real
 * OFAC fixture, the screening downloaded as CSV, delete; garbage forms and uploads answered
 * 4xx, another account's list 404.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { ENGINES, startTestService, type TestService } from "../../helpers/service.ts";
import { importFile, OFAC_2024_05_03 } from "../../helpers/sanctions.ts";
import { Browser, csrfFrom, makeUser } from "./helpers.ts";

/** A form with a file input, as a browser sends it: multipart/form-data. */
async function postMultipart(b: Browser, url: string, fields: Record<string, string>, file?: { name: string; text: string }) {
  const form = new FormData();
  form.set("_csrf", csrfFrom((await b.get("/account/watchlists")).body));
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set("file", file ? new File([file.text], file.name, { type: "text/csv" }) : new File([], "", { type: "application/octet-stream" }));
  const req = new Request("http://x/", { method: "POST", body: form });
  return b.t.service.app.inject({
    method: "POST",
    url,
    headers: { cookie: b.cookieHeader, "content-type": req.headers.get("content-type")! },
    payload: Buffer.from(await req.arrayBuffer()),
  });
}

for (const engine of ENGINES) {
  describe(`watchlists page (${engine})`, () => {
    let t: TestService;
    let b: Browser;
    let accountId: string;
    before(async () => {
      t = await startTestService({ engine, withData: false });
      await importFile(t, "ofac", [OFAC_2024_05_03], { asOf: "2024-05-03" });
      accountId = (await makeUser(t, `wl-${engine}@example.org`, "pro")).accountId;
      b = new Browser(t);
      await b.signIn(`wl-${engine}@example.org`);
    });
    after(() => t.close());
    const lists = () => t.service.services.watchlists.listWatchlists(accountId);

    test("the account navigation links to the page, marked current there", async () => {
      const res = await b.get("/account/watchlists");
      assert.equal(res.statusCode, 200);
      assert.match(res.body, /<a href="\/account\/watchlists" aria-current="page">Watchlists<\/a>/);
      assert.match((await b.get("/account")).body, /<a href="\/account\/watchlists">Watchlists<\/a>/);
      assert.match(res.body, /enctype="multipart\/form-data"/);
    });

    test("pasted ids make a list (post, redirect, get); an uploaded CSV with an imo column makes another", async () => {
      const pasted = await postMultipart(b, "/account/watchlists", { name: "Pasted", ids: "7406784\n9176187, mmsi-572469210\n\n" });
      assert.equal(pasted.statusCode, 303, pasted.body);
      assert.equal(pasted.headers.location, "/account/watchlists?done=added");
      const csv = "name,IMO,flag\nEBANO,7406784,Panama\nCLEAN,IMO 9176187,Malta\nARTAVIL,9187629,Iran\n";
      const uploaded = await postMultipart(b, "/account/watchlists", { name: "Uploaded", ids: "" }, { name: "fleet.csv", text: csv });
      assert.equal(uploaded.statusCode, 303, uploaded.body);
      const made = await lists();
      assert.deepEqual(
        made.filter((w) => w.name === "Pasted" || w.name === "Uploaded").map((w) => [w.name, w.memberCount]),
        [
          ["Pasted", 3],
          ["Uploaded", 3],
        ],
      );
      const page = await b.get("/account/watchlists?done=added");
      assert.match(page.body, /role="status">Added\./);
      assert.match(page.body, /<td>Uploaded<\/td><td>3<\/td>/);
      // The url-encoded form a script-less client may send still works for pasted ids.
      const plain = await b.post("/account/watchlists", { name: "Plain", ids: "9176187" }, "/account/watchlists");
      assert.equal(plain.statusCode, 303);
    });

    test("refused lines are named with their file and line, and nothing is added", async () => {
      const before = (await lists()).length;
      const csv = "id\n7406784\n123\nmmsi-12\n9176187\n";
      const res = await postMultipart(b, "/account/watchlists", { name: "Bad file", ids: "9176188" }, { name: "book.csv", text: csv });
      assert.equal(res.statusCode, 400);
      assert.match(res.body, /3 lines were refused, so nothing was added/);
      assert.match(res.body, /<li>Pasted line 1: <code>9176188<\/code><\/li>/);
      assert.match(res.body, /<li>book\.csv line 3: <code>123<\/code><\/li>/);
      assert.match(res.body, /<li>book\.csv line 4: <code>mmsi-12<\/code><\/li>/);
      assert.doesNotMatch(res.body, /line 2: <code>7406784/);
      assert.match(res.body, /value="Bad file"/, "what was typed stays");
      assert.equal((await lists()).length, before);
    });

    test("garbage forms and uploads are refused with a reason, never a 500", async () => {
      const before = (await lists()).length;
      const cases: [Record<string, string>, { name: string; text: string } | undefined, RegExp][] = [
        [{ name: "Empty", ids: "" }, undefined, /would be empty/],
        [{ name: "", ids: "9176187" }, undefined, /name/i],
        [{ name: "x".repeat(101), ids: "9176187" }, undefined, /at most 100 characters/],
        [{ name: "Quote", ids: "" }, { name: "q.csv", text: 'id\n"7406784\n' }, /could not be read as CSV/],
        [{ name: "Binary", ids: "" }, { name: "x.csv", text: "\u0000\u0001\u0002" }, /refused/],
        [{ name: "Header only", ids: "" }, { name: "h.csv", text: "imo\n" }, /No vessel ids were found/],
      ];
      for (const [fields, file, message] of cases) {
        const res = await postMultipart(b, "/account/watchlists", fields, file);
        assert.equal(res.statusCode, 400, `${JSON.stringify(fields)}: ${res.statusCode}`);
        assert.match(res.body, message);
      }
      const broken = await t.service.app.inject({
        method: "POST",
        url: "/account/watchlists",
        headers: { cookie: b.cookieHeader, "content-type": "multipart/form-data; boundary=nope" },
        payload: "--other\r\nnot a form",
      });
      assert.ok(broken.statusCode === 400 || broken.statusCode === 403, `${broken.statusCode}`);
      const noCsrf = await t.service.app.inject({ method: "POST", url: "/account/watchlists", headers: { cookie: b.cookieHeader, "content-type": "application/x-www-form-urlencoded" }, payload: "name=x&ids=9176187" });
      assert.equal(noCsrf.statusCode, 403);
      assert.equal((await lists()).length, before);
    });

    test("the members sanctioned now, the screening as CSV, and delete", async () => {
      const wl = (await lists()).find((w) => w.name === "Uploaded")!;
      const page = await b.get(`/account/watchlists/wl_${wl.id}`);
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /3 vessels screened: <strong>2 sanctioned now<\/strong>\. This screening cost 3 credits\./);
      const table = /<table id="sanctioned">[\s\S]*<\/table>/.exec(page.body)![0];
      assert.match(table, /<td>7406784<\/td><td>EBANO<\/td>/);
      assert.match(table, /<td>9187629<\/td><td>ARTAVIL<\/td>/);
      assert.doesNotMatch(table, /9176187/);

      const csv = await b.get(`/account/watchlists/wl_${wl.id}/screening.csv`);
      assert.equal(csv.statusCode, 200);
      assert.equal(csv.headers["content-type"], "text/csv; charset=utf-8");
      assert.match(String(csv.headers["content-disposition"]), /^attachment; filename="wl_\d+-screening\.csv"$/);
      const lines = csv.body.trimEnd().split("\r\n");
      assert.equal(lines[0], "query,imo,mmsi,name,sanctioned,certainty,listsCheckedFull,listsCheckedExtract,listsNotChecked,status,list,family,listName,recordId,designationName,program,listedAt,firstSeenAt,delistedAt,matchedOn,matchedValue,matchedFormerIdentifier,sourceUrl");
      const ebano = lines.find((l) => l.startsWith("7406784,"))!;
      assert.match(ebano, /^7406784,7406784,,EBANO,true,match,/);
      assert.match(ebano, /,active,ofac_sdn,ofac,/);
      const clean = lines.filter((l) => l.startsWith("9176187,"));
      assert.equal(clean.length, 1, "a vessel no designation matches has one line");
      assert.match(clean[0]!, /^9176187,9176187,,,false,/);
      assert.equal(clean[0]!.split(",").length, 23);

      const other = new Browser(t);
      await makeUser(t, `other-${engine}@example.org`, "pro");
      await other.signIn(`other-${engine}@example.org`);
      assert.equal((await other.get(`/account/watchlists/wl_${wl.id}`)).statusCode, 404);
      assert.equal((await other.get(`/account/watchlists/wl_${wl.id}/screening.csv`)).statusCode, 404);
      assert.equal((await other.post(`/account/watchlists/wl_${wl.id}/delete`, {}, "/account/watchlists")).statusCode, 404);
      assert.equal((await b.get("/account/watchlists/nonsense")).statusCode, 400);

      const deleted = await b.post(`/account/watchlists/wl_${wl.id}/delete`, {}, "/account/watchlists");
      assert.equal(deleted.statusCode, 303);
      assert.equal((await b.get(`/account/watchlists/wl_${wl.id}`)).statusCode, 404);
    });
  });
}
