/**
 * What every leanwire function throws: an `Error` that also says what kind
 * of defect it found and at which offset of the input.
 */
export class LeanwireError extends Error {
  /**
   * @param {string} message what was wrong, and where
   * @param {string} kind the defect, such as `"MissingPort"` or `"ShortInput"`
   * @param {number} offset the byte offset in the input where it was found
   */
  constructor(message, kind, offset) {
    super(message);
    this.name = "LeanwireError";
    this.kind = kind;
    this.offset = offset;
  }
}
