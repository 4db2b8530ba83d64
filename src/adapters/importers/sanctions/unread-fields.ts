/**
 * Fields of a record that a reader does not turn into designation fields: counted per field
 * so the import reports them in one warning (and the reader keeps their values in the
 * remarks) instead of dropping them silently.
 */
export class UnreadFields {
  readonly #what: string;
  readonly #count = new Map<string, number>();
  constructor(what: string) {
    this.#what = what;
  }
  saw(field: string): void {
    this.#count.set(field, (this.#count.get(field) ?? 0) + 1);
  }
  /** One warning line naming every unread field and how many records carry it, or nothing. */
  report(list: string, fileName: string, warn: (message: string) => void): void {
    if (this.#count.size === 0) return;
    const fields = [...this.#count].map(([f, n]) => `${f} (${n} record${n === 1 ? "" : "s"})`).join(", ");
    warn(`${list}: ${fileName}: ${this.#what} fields not read into designation fields, kept in the remarks: ${fields}`);
  }
}
