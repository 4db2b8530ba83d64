/**
 * A company as one source states it: a legal-entity record (names, identifiers, its own
 * designations) and the ships the source ties to it (fleet links), each with the role the
 * source gives and the source's own words as evidence. Records of several sources that
 * share a strong identifier (company IMO number, LEI) are one company (see entity-id.ts).
 */
import { z } from "zod";

/** What a company is to a ship. `linked` is a tie whose kind the source does not say (OFAC "Linked To:"). */
export const FLEET_ROLES = ["registered_owner", "operator", "manager", "linked"] as const;
export type FleetRole = (typeof FLEET_ROLES)[number];

/** A designation of the company itself on a sanctions list. */
export const CompanyDesignationSchema = z.object({
  list: z.string(),
  /** The list's own record id. */
  recordId: z.string(),
  /** The name as listed. */
  name: z.string(),
  programs: z.array(z.string()),
  listedAt: z.string().nullable(),
  sourceUrl: z.string().nullable(),
});

export type CompanyDesignation = z.infer<typeof CompanyDesignationSchema>;

/** One ship a source ties to the company. A ship is named by IMO number, else by MMSI. */
export const FleetLinkSchema = z.object({
  imo: z.number().int().nullable(),
  mmsi: z.number().int().nullable(),
  /** The ship's name as this source writes it, when it gives one. */
  vesselName: z.string().nullable(),
  role: z.enum(FLEET_ROLES),
  /** The source field the link comes from, quoted: `Linked To: NATIONAL IRANIAN TANKER COMPANY`. */
  evidence: z.string(),
});

export type FleetLink = z.infer<typeof FleetLinkSchema>;

/** One company record as one source states it: the one declaration of a company record. */
export const CompanyRecordSchema = z.object({
  /** The source id (config/sources.json) every fact of the record rests on. */
  source: z.string(),
  /** The record's id within its source; with the source, the key of re-imports. */
  key: z.string(),
  /** The entity id this record answers to on its own (see entity-id.ts). */
  entityId: z.string(),
  name: z.string(),
  aliases: z.array(z.string()),
  /** The IMO Unique Company and Registered Owner Identification Number, where the source carries it. */
  companyImo: z.string().nullable(),
  /** ISO 17442 Legal Entity Identifier, where the source carries it. */
  lei: z.string().nullable(),
  country: z.string().nullable(),
  address: z.string().nullable(),
  designations: z.array(CompanyDesignationSchema),
  fleet: z.array(FleetLinkSchema),
});

export type CompanyRecord = z.infer<typeof CompanyRecordSchema>;
