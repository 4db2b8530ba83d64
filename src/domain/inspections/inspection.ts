/**
 * A port state control (or flag state, or class) inspection of a ship, as an operator's
 * import states it. No open bulk source of inspections exists, so none ship with the
 * service; each row rests on the source the operator filed it under.
 */
export interface Inspection {
  /** Day of the inspection, yyyy-mm-dd. */
  date: string;
  /** The kind of inspection as published, e.g. "PSC", "Port State Control Exam", "ISPS". */
  type: string;
  /** Where: a UN/LOCODE when the file gives one, else the port as published. */
  port: string;
  imo: number;
  /** Who inspected: "USCG", "Paris MoU", "AMSA"... */
  authority: string;
  /** The publication or record the row was taken from, as the file gives it (e.g. "USCG PSIX"). */
  origin: string;
}
