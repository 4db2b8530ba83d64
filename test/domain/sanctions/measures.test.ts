import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { designationList, makeDesignation, readStoredDesignation } from "../../../src/domain/sanctions/designation.ts";
import { deriveMeasures, measureTypeOf } from "../../../src/domain/sanctions/measures.ts";

describe("measures", () => {
  test("the type is read from the list's words; anything unknown is `other`, in its words", () => {
    const cases: [string, string][] = [
      ["Asset freeze", "asset_freeze"],
      ["Block", "asset_freeze"],
      ["Prohibition of port entry", "port_access_ban"],
      ["Prohibition of port access and of services", "port_access_ban"],
      ["Transportation restrictions", "transport_ban"],
      ["Ship Ban", "transport_ban"],
      ["Service Prohibition", "services_ban"],
      ["Trust services sanctions", "services_ban"],
      ["Financial restrictions", "financial_restrictions"],
      ["Dealing with Securities", "financial_restrictions"],
      ["Additional Sanctions Information - Subject to Secondary Sanctions", "secondary_sanctions_risk"],
      ["Aircraft Ban", "other"],
    ];
    for (const [text, type] of cases) assert.equal(measureTypeOf(text), type, text);
  });

  test("OFAC: one Block per programme tag, with the order a tag names; a bare Block the publication gives is that measure", () => {
    const measures = deriveMeasures({ list: "ofac", recordId: "1", programs: ["SDGT", "IRAN-EO13846"] }, ["Block", "Secondary sanctions risk: See Section 11 of Executive Order 14024"]);
    assert.deepEqual(measures, [
      { type: "asset_freeze", text: "Block (programme SDGT)", legalBasis: null },
      { type: "asset_freeze", text: "Block (programme IRAN-EO13846)", legalBasis: { instrument: "Executive Order 13846", provision: null, url: null } },
      { type: "secondary_sanctions_risk", text: "Secondary sanctions risk: See Section 11 of Executive Order 14024", legalBasis: { instrument: "Executive Order 14024", provision: "Section 11", url: null } },
    ]);
  });

  test("a list that states no measure has none (Canada), never an invented one", () => {
    const d = makeDesignation({ list: "canada", recordId: "Russia / Russie|1.1|1", name: "Balitiyskiy III", programs: ["Russia / Russie"], sourceUrl: "https://example.org/" });
    assert.deepEqual(d.measures, []);
  });

  test("a record stored with plain texts reads as the same record imported now", () => {
    const now = makeDesignation({ list: "uk", recordId: "RUS3686", name: "X", programs: ["The Russia (Sanctions) (EU Exit) Regulations 2019"], measures: ["Prohibition of port entry"], sourceUrl: "https://example.org/" });
    const stored = JSON.stringify({ ...now, measures: ["Prohibition of port entry"] });
    assert.deepEqual(readStoredDesignation(stored), now);
    assert.deepEqual(readStoredDesignation(JSON.stringify(now)), now);
  });
});

describe("the list a designation is on", () => {
  test("each family's list, and the EU annex of the entry or the FSF", () => {
    assert.deepEqual(designationList({ list: "ofac", recordId: "15036" }).list, "ofac_sdn");
    assert.deepEqual(designationList({ list: "uk", recordId: "RUS3686" }).list, "uk_sanctions_list");
    assert.deepEqual(designationList({ list: "canada", recordId: "x" }).list, "canada_sema");
    assert.deepEqual(designationList({ list: "new-zealand", recordId: "x" }).list, "nz_russia_sanctions_register");
    assert.deepEqual(designationList({ list: "eu", recordId: "32014R0833/XLII/1" }), { list: "eu_32014r0833_annex_xlii", listName: "Regulation (EU) No 833/2014, Annex XLII" });
    assert.deepEqual(designationList({ list: "eu", recordId: "32017R1509/XIV.A/imo-8606173" }), { list: "eu_32017r1509_annex_xiv_a", listName: "Regulation (EU) 2017/1509, Annex XIV.A" });
    assert.deepEqual(designationList({ list: "eu", recordId: "FSF/EU.9442.82" }).list, "eu_fsf");
  });
});
