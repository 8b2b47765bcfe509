/**
 * UTC instants that remember their canonical text. A store reads every timestamp as text (SQLite)
 * and an answer writes it back as the same text (`DateTime.formatIso`'s): building Effect's
 * `DateTime.Utc` from milliseconds (`unsafeMake` makes a `Date`, then an object with a
 * `defineProperty`, ~200 ns and ~200 bytes) and formatting it again were ~7% of a 500-record audit
 * page (issue 19). `make` builds an equivalent `DateTime.Utc` (Effect's own prototype, the same
 * enumerable properties, equal by `Equal` and by structure) in a few nanoseconds and keeps the
 * text, which the HTTP encoder writes instead of formatting it again (`textOf`).
 *
 * The text is held in a private field: invisible to `Object.keys`, equality and JSON, and set once
 * by the constructor. A `DateTime` is immutable, so the text stays the instant's.
 */
import { DateTime } from "effect"

const ProtoUtc: object = Object.getPrototypeOf(DateTime.unsafeMake(0))

class TextedUtc {
  readonly #text: string | undefined
  constructor(readonly epochMillis: number, text: string | undefined) {
    this.#text = text
  }
  static textOf(value: object): string | undefined {
    return #text in value ? (value as TextedUtc).#text : undefined
  }
}

// Effect caches an instant's calendar parts in a non-enumerable own `partsUtc` (its constructor
// defines it as `undefined`, the costly step). Here it is absent until Effect first stores parts,
// which then define it as Effect would have.
Object.defineProperty(TextedUtc.prototype, "partsUtc", {
  get: () => undefined,
  set(this: object, parts: unknown) {
    Object.defineProperty(this, "partsUtc", { value: parts, writable: true, enumerable: false })
  }
})
Object.setPrototypeOf(TextedUtc.prototype, ProtoUtc)

/**
 * The `DateTime.Utc` of `epochMillis` (a finite number of milliseconds, as `DateTime.unsafeMake`
 * takes it), remembering `text`, which must be exactly `DateTime.formatIso` of that instant:
 * callers prove it (store-sql's `isoTextMillis` accepts only `YYYY-MM-DDTHH:mm:ss.sssZ` with valid
 * fields, the one text of its instant). Without `text`, just the instant.
 * @since 0.1.0
 * @category constructors
 */
export const make = (epochMillis: number, text?: string): DateTime.Utc =>
  new TextedUtc(epochMillis, text) as unknown as DateTime.Utc

/**
 * `DateTime.formatIso(value)` when `value` was made by `make` with its text, else `undefined`.
 * @since 0.1.0
 * @category utils
 */
export const textOf = (value: DateTime.DateTime): string | undefined => TextedUtc.textOf(value)
