/**
 * `Schema.encode` of a success schema, compiled once per endpoint into plain functions over the
 * schema's AST. `Schema.encode` interprets the AST for every value: per node a parser lookup, an
 * `Either` per field, a `Composite`-ready output and its bookkeeping (~5 µs per audit record,
 * more per insight). The compiled encoder does the same walk with the decisions taken at compile
 * time: a struct of required fields is one generated function returning an object literal (a
 * loop over its property signatures otherwise), an array a loop over its items, a keyword a
 * `typeof` check, `DateTimeUtc` its check and `IsoText.formatIso`, and other transformations and
 * declarations (`Schema.Class`) call the schema's own functions.
 *
 * Only successes are answered here. Every check the compiled functions make is the one
 * `ParseResult` makes for that node (or stricter); when one fails, the encoder gives up and
 * `Schema.encode` runs on the whole value, so failures (their `ParseError`s) and any value the
 * compiled functions are unsure of are exactly `Schema.encode`'s. A node it does not compile (a
 * `Suspend`, a tuple with fixed elements, a template literal, a node with parse options, a union
 * of several structured members, a refinement of a schema with transformations) is encoded by `ParseResult` itself,
 * as a synchronous `Either`; only that subtree pays the interpreter.
 * `test/unit/CompiledEncoder.test.ts` proves the result equal to `Schema.encode` for arbitrary
 * values of every endpoint's success schema.
 */
import { CanonicalTime } from "@costline/core"
import { DateTime, Effect, Either, Option, ParseResult, Schema, SchemaAST as AST } from "effect"
import * as IsoText from "./IsoText.js"

/** What a compiled node gives when the value is not (surely) valid: `Schema.encode` decides. */
const GIVE_UP: unique symbol = Symbol("CompiledEncoder/giveUp")
type Encode = (value: unknown) => unknown

const identity: Encode = (value) => value
const check = (is: (value: unknown) => boolean): Encode => (value) => (is(value) ? value : GIVE_UP)

/** The right of a synchronous parse result, else `GIVE_UP` (a failure, or an effect to run). */
const rightOf = (result: unknown): unknown =>
  Either.isEither(result) ? (Either.isRight(result) ? result.right : GIVE_UP) : GIVE_UP

/** `ParseResult`'s own encoder for a node this module does not compile. */
const interpreted = (ast: AST.AST): Encode => {
  const encode = ParseResult.encodeUnknownEither(Schema.make(ast))
  return (value) => {
    const result = encode(value)
    return Either.isRight(result) ? result.right : GIVE_UP
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** A member that holds no structure: it can accept a value only when no structured member could. */
const isScalar = (ast: AST.AST): boolean => {
  switch (ast._tag) {
    case "Literal":
    case "UndefinedKeyword":
    case "StringKeyword":
    case "NumberKeyword":
    case "BooleanKeyword":
    case "BigIntKeyword":
    case "SymbolKeyword":
      return true
    case "Refinement":
      return isScalar(ast.from)
    default:
      return false
  }
}

/**
 * A node whose encoding is its value, checked by one JavaScript expression over `expression`
 * (keywords, literals and unions of them): written inline into a struct's generated function.
 */
const inlineTest = (ast: AST.AST): ((expression: string) => string) | undefined => {
  if (Option.isSome(AST.getParseOptionsAnnotation(ast))) return undefined
  switch (ast._tag) {
    case "Literal": {
      const literal = ast.literal
      if (literal !== null && typeof literal !== "string" && typeof literal !== "number" && typeof literal !== "boolean") return undefined
      if (typeof literal === "number" && !Number.isFinite(literal)) return undefined
      return (expression) => `${expression} === ${JSON.stringify(literal)}`
    }
    case "UndefinedKeyword":
      return (expression) => `${expression} === undefined`
    case "StringKeyword":
      return (expression) => `typeof ${expression} === "string"`
    case "NumberKeyword":
      return (expression) => `typeof ${expression} === "number"`
    case "BooleanKeyword":
      return (expression) => `typeof ${expression} === "boolean"`
    case "UnknownKeyword":
    case "AnyKeyword":
    case "VoidKeyword":
      return () => "true"
    case "Union": {
      const members = ast.types.map(inlineTest)
      if (members.some((member) => member === undefined)) return undefined
      return (expression) => `(${members.map((member) => member!(expression)).join(" || ")})`
    }
    default:
      return undefined
  }
}

/**
 * A struct of required fields as one generated function: the value's fields read once, checked
 * inline or by their node's encoder, and the output built as an object literal in the schema's
 * order (one shape for every value). `undefined` where code cannot be generated (a runtime that
 * forbids `new Function`).
 */
const generatedStruct = (names: ReadonlyArray<string>, types: ReadonlyArray<AST.AST>): Encode | undefined => {
  const encoders: Array<Encode> = []
  const lines = ["if (typeof v !== \"object\" || v === null || Array.isArray(v)) return G"]
  const outputs = names.map((name, index) => {
    const field = `f${index}`
    lines.push(`const ${field} = v[${JSON.stringify(name)}]`)
    const test = inlineTest(types[index]!)
    if (test !== undefined) {
      lines.push(`if (!(${test(field)})) return G`)
      return `${JSON.stringify(name)}: ${field}`
    }
    encoders.push(compileNode(types[index]!))
    lines.push(`const x${index} = e[${encoders.length - 1}](${field})`, `if (x${index} === G) return G`)
    return `${JSON.stringify(name)}: x${index}`
  })
  lines.push(`return { ${outputs.join(", ")} }`)
  try {
    return new Function("G", "e", `return function encodeStruct(v) {\n${lines.join("\n")}\n}`)(GIVE_UP, encoders) as Encode
  } catch {
    return undefined
  }
}

/** `Schema.Record({ key: Schema.String, value: Schema.Unknown })` (or `Any`): a JSON object such as an audit record's values. */
const isJsonObjectRecord = (ast: AST.TypeLiteral): boolean =>
  ast.propertySignatures.length === 0 && ast.indexSignatures.length === 1 &&
  ast.indexSignatures[0]!.parameter._tag === "StringKeyword" &&
  (ast.indexSignatures[0]!.type._tag === "UnknownKeyword" || ast.indexSignatures[0]!.type._tag === "AnyKeyword") &&
  Option.isNone(AST.getParseOptionsAnnotation(ast.indexSignatures[0]!.type))

/**
 * Such a record is encoded by `ParseResult` as a copy of its own enumerable string keys (its values
 * as they are). A plain object is that copy already, as far as anyone can see: the same keys in
 * the same order, the same prototype, so the same JSON. The copy is skipped for it (two objects
 * per audit record, with an `Object.keys` each), except when it has an own `__proto__` key, which
 * the copy's assignment would turn into its prototype instead of a key.
 */
const encodeJsonObjectRecord: Encode = (value) => {
  if (!isRecord(value)) return GIVE_UP
  if (Object.getPrototypeOf(value) === Object.prototype && !Object.prototype.hasOwnProperty.call(value, "__proto__")) return value
  const output: Record<string, unknown> = {}
  for (const key of Object.keys(value)) output[key] = value[key]
  return output
}

const compileTypeLiteral = (ast: AST.TypeLiteral): Encode | undefined => {
  if (ast.propertySignatures.length === 0 && ast.indexSignatures.length === 0) {
    return check((value) => value !== null && value !== undefined)
  }
  if (ast.propertySignatures.some((ps) => typeof ps.name !== "string")) return undefined
  if (ast.indexSignatures.some((is) => is.parameter._tag !== "StringKeyword")) return undefined
  // `__proto__` as a literal's key would set the prototype: such a struct takes the loop below.
  if (
    ast.indexSignatures.length === 0 &&
    ast.propertySignatures.every((ps) => !ps.isOptional && ps.name !== "__proto__")
  ) {
    const generated = generatedStruct(
      ast.propertySignatures.map((ps) => ps.name as string),
      ast.propertySignatures.map((ps) => ps.type)
    )
    if (generated !== undefined) return generated
  }
  if (isJsonObjectRecord(ast)) return encodeJsonObjectRecord
  const properties = ast.propertySignatures.map((ps) => ({
    name: ps.name as string,
    optional: ps.isOptional,
    encode: compileNode(ps.type)
  }))
  const indexed = ast.indexSignatures.map((is) => compileNode(is.type))
  const declared = new Set(properties.map(({ name }) => name))
  const count = properties.length
  return (value) => {
    if (!isRecord(value)) return GIVE_UP
    const output: Record<string, unknown> = {}
    for (let index = 0; index < count; index++) {
      const { encode, name, optional } = properties[index]!
      // A missing required key is read as `undefined`, as `ParseResult` does without `exact`.
      if (optional && !Object.prototype.hasOwnProperty.call(value, name)) continue
      const encoded = encode(value[name])
      if (encoded === GIVE_UP) return GIVE_UP
      output[name] = encoded
    }
    for (const encode of indexed) {
      for (const key of Object.keys(value)) {
        const encoded = encode(value[key])
        if (encoded === GIVE_UP) return GIVE_UP
        if (!declared.has(key)) output[key] = encoded
      }
    }
    return output
  }
}

const compileArray = (ast: AST.TupleType): Encode | undefined => {
  if (ast.elements.length > 0 || ast.rest.length !== 1) return undefined
  const encodeItem = compileNode(ast.rest[0]!.type)
  return (value) => {
    if (!Array.isArray(value)) return GIVE_UP
    const length = value.length
    const output = new Array(length)
    for (let index = 0; index < length; index++) {
      const encoded = encodeItem(value[index])
      if (encoded === GIVE_UP) return GIVE_UP
      output[index] = encoded
    }
    return output
  }
}

/** Members tried in order: exact while at most one of them holds structure (see `isScalar`). */
const compileUnion = (ast: AST.Union): Encode | undefined => {
  if (ast.types.filter((member) => !isScalar(member)).length > 1) return undefined
  const members = ast.types.map(compileNode)
  return (value) => {
    for (const encode of members) {
      const encoded = encode(value)
      if (encoded !== GIVE_UP) return encoded
    }
    return GIVE_UP
  }
}

const DateTimeUtcAst = Schema.DateTimeUtc.ast as AST.Transformation
const DateTimeUtcFromSelfAst = Schema.DateTimeUtcFromSelf.ast as AST.Declaration

/**
 * `Schema.DateTimeUtc` (however annotated: the same transformation and declaration), the most
 * common transformation in the API's answers: its check and `formatIso`'s text (`IsoText`),
 * without the two `Either`s of the general path.
 */
const isDateTimeUtc = (ast: AST.Transformation): boolean =>
  ast.transformation === DateTimeUtcAst.transformation &&
  AST.isDeclaration(ast.to) && ast.to.encodeUnknown === DateTimeUtcFromSelfAst.encodeUnknown &&
  AST.isStringKeyword(ast.from) && Option.isNone(AST.getParseOptionsAnnotation(ast.to)) &&
  Option.isNone(AST.getParseOptionsAnnotation(ast.from))

/** An instant read from a store's canonical text (`CanonicalTime`) is written as that text. */
const encodeDateTimeUtc: Encode = (value) =>
  DateTime.isDateTime(value) && DateTime.isUtc(value) ? CanonicalTime.textOf(value) ?? IsoText.formatIso(value) : GIVE_UP

/** Encoding a transformation: its `to` side, the transformation's `encode`, then its `from` side. */
const compileTransformation = (ast: AST.Transformation): Encode | undefined => {
  if (isDateTimeUtc(ast)) return encodeDateTimeUtc
  const encodeTo = compileNode(ast.to)
  const encodeFrom = compileNode(ast.from)
  const transformation = ast.transformation
  switch (transformation._tag) {
    case "ComposeTransformation":
      return (value) => {
        const to = encodeTo(value)
        return to === GIVE_UP ? GIVE_UP : encodeFrom(to)
      }
    case "FinalTransformation":
      return (value) => {
        const to = encodeTo(value)
        if (to === GIVE_UP) return GIVE_UP
        const transformed = rightOf(transformation.encode(to, AST.defaultParseOption, ast, value))
        return transformed === GIVE_UP ? GIVE_UP : encodeFrom(transformed)
      }
    default:
      return undefined
  }
}

/** `Schema.UUID`'s own refinement (its schema id), not another filter that happens to be on a string. */
const isUuidRefinement = (ast: AST.Refinement): boolean =>
  Option.getOrUndefined(AST.getSchemaIdAnnotation(ast)) === Schema.UUIDSchemaId && isScalar(ast.from)

const HYPHEN = 45
/** 1 for the character codes of hexadecimal digits (ASCII only). */
const HEX_DIGIT = new Uint8Array(128)
for (const digit of "0123456789abcdefABCDEF") HEX_DIGIT[digit.charCodeAt(0)] = 1

/**
 * Whether `value` matches `Schema.UUID`'s pattern, `/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/i`:
 * 36 characters, hyphens at 8, 13, 18 and 23 and nowhere else, hexadecimal digits elsewhere
 * (~100 ns a value against ~200 for the expression and ~340 through the schema's filter).
 */
export const isUuidText = (value: unknown): boolean => {
  if (typeof value !== "string" || value.length !== 36) return false
  if (value.charCodeAt(8) !== HYPHEN || value.charCodeAt(13) !== HYPHEN || value.charCodeAt(18) !== HYPHEN || value.charCodeAt(23) !== HYPHEN) {
    return false
  }
  for (let index = 0; index < 36; index++) {
    const code = value.charCodeAt(index)
    if (code === HYPHEN ? !(index === 8 || index === 13 || index === 18 || index === 23) : code > 127 || HEX_DIGIT[code] === 0) return false
  }
  return true
}

/**
 * A refinement: `ParseResult` validates the value with the refined schema's type side, filters
 * what that gives, then encodes. For a scalar that validation gives the value itself; for a
 * schema without transformations (a record of JSON values) it gives what encoding gives, so the
 * filter sees the encoded value. Anything else is left to `ParseResult`.
 */
const compileRefinement = (ast: AST.Refinement): Encode | undefined => {
  const scalar = isScalar(ast.from)
  if (!scalar && (AST.typeAST(ast.from) !== ast.from || AST.encodedAST(ast.from) !== ast.from)) return undefined
  const encodeFrom = compileNode(ast.from)
  if (isUuidRefinement(ast)) {
    // Every id of every record: the same check as `Schema.UUID`'s pattern, without a regular
    // expression and the filter's wrapping (4% of an audit page's CPU, issue 19).
    return (value) => {
      const encoded = encodeFrom(value)
      return encoded === GIVE_UP || !isUuidText(value) ? GIVE_UP : encoded
    }
  }
  const filter = ast.filter
  return (value) => {
    // The refined schema's check first: a filter assumes a value of its type.
    const encoded = encodeFrom(value)
    return encoded === GIVE_UP || Option.isSome(filter(scalar ? value : encoded, AST.defaultParseOption, ast)) ? GIVE_UP : encoded
  }
}

const compileDeclaration = (ast: AST.Declaration): Encode => {
  const encode = ast.encodeUnknown(...ast.typeParameters)
  return (value) => rightOf(encode(value, AST.defaultParseOption, ast))
}

const compileKnown = (ast: AST.AST): Encode | undefined => {
  switch (ast._tag) {
    case "Literal": {
      const literal = ast.literal
      return check((value) => value === literal)
    }
    case "UndefinedKeyword":
      return check((value) => value === undefined)
    case "NeverKeyword":
      return () => GIVE_UP
    case "UnknownKeyword":
    case "AnyKeyword":
    case "VoidKeyword":
      return identity
    case "StringKeyword":
      return check((value) => typeof value === "string")
    case "NumberKeyword":
      return check((value) => typeof value === "number")
    case "BooleanKeyword":
      return check((value) => typeof value === "boolean")
    case "Enums": {
      const values = ast.enums.map(([, value]) => value)
      return check((value) => values.some((member) => member === value))
    }
    case "TypeLiteral":
      return compileTypeLiteral(ast)
    case "TupleType":
      return compileArray(ast)
    case "Union":
      return compileUnion(ast)
    case "Transformation":
      return compileTransformation(ast)
    case "Refinement":
      return compileRefinement(ast)
    case "Declaration":
      return compileDeclaration(ast)
    default:
      return undefined
  }
}

const compiled = new WeakMap<AST.AST, Encode>()

/** The node's encoder: compiled, or `ParseResult`'s where this module does not compile it. */
const compileNode = (ast: AST.AST): Encode => {
  const known = compiled.get(ast)
  if (known !== undefined) return known
  // Parse options on a node change how its whole subtree is encoded: left to `ParseResult`.
  const encode = (Option.isNone(AST.getParseOptionsAnnotation(ast)) ? compileKnown(ast) : undefined) ?? interpreted(ast)
  compiled.set(ast, encode)
  return encode
}

/**
 * `Schema.encode(schema)`, its successes computed by the compiled functions: the same value on
 * success, and `Schema.encode`'s own result (its error) whenever they give up.
 */
export const encoder = <A, I>(schema: Schema.Schema<A, I>): (value: unknown) => Effect.Effect<I, ParseResult.ParseError> => {
  const encodeCompiled = compileNode(schema.ast)
  const encodeDeclared = Schema.encodeUnknown(schema as Schema.Schema<A, I, never>)
  return (value) => {
    const encoded = encodeCompiled(value)
    return encoded === GIVE_UP ? encodeDeclared(value) : Effect.succeed(encoded as I)
  }
}

/** The same, synchronous: `undefined` where `Schema.encode` would be needed (a failure). For tests and benchmarks. */
export const encodeSuccess = (schema: Schema.Schema.Any) => {
  const encodeCompiled = compileNode(schema.ast)
  return (value: unknown): unknown => {
    const encoded = encodeCompiled(value)
    return encoded === GIVE_UP ? undefined : encoded
  }
}
