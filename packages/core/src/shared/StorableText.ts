/**
 * Text and JSON that every store keeps exactly. Postgres refuses NUL characters in `text`, and
 * unpaired UTF-16 surrogates and non-finite numbers in `jsonb`, failing the whole statement; it
 * would also silently replace unpaired surrogates in `text`, where SQLite keeps them. Input is
 * checked against these rules, so such values are a validation error, never a store failure.
 */
import { Schema } from "effect"

const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/**
 * @since 0.1.0
 * @category utils
 */
export const isStorableText = (text: string): boolean => !text.includes("\u0000") && !UNPAIRED_SURROGATE.test(text)

const isPlainObject = (value: object): boolean => {
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

/**
 * A JSON value (null, booleans, finite numbers, arrays, plain objects) of storable text, keys included.
 * @since 0.1.0
 * @category utils
 */
export const isStorableJson = (value: unknown): boolean => {
  switch (typeof value) {
    case "boolean":
      return true
    case "number":
      return Number.isFinite(value)
    case "string":
      return isStorableText(value)
    case "object":
      if (value === null) return true
      if (Array.isArray(value)) return value.every(isStorableJson)
      return isPlainObject(value) &&
        Object.entries(value).every(([key, member]) => isStorableText(key) && isStorableJson(member))
    default:
      return false
  }
}

/**
 * @since 0.1.0
 * @category constants
 */
export const STORABLE_TEXT_MESSAGE = "must not contain NUL characters or unpaired surrogates"

/**
 * Refines a string schema to storable text.
 * @since 0.1.0
 * @category schemas
 */
export const storable = <S extends Schema.Schema<string, any, any>>(self: S) =>
  self.pipe(Schema.filter((text: string) => isStorableText(text), { message: () => STORABLE_TEXT_MESSAGE }))

/**
 * @since 0.1.0
 * @category utils
 */
export const StorableString = storable(Schema.String)
