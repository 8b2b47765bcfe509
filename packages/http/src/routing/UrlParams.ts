/**
 * The query string as the platform hands it to an endpoint's `urlParams` schema: a parameter
 * given once stays a string where the schema takes one string, and becomes a one-element array
 * where the schema takes several. Mirrors the platform's internal `normalizeUrlParams`, which is
 * not exported.
 */
import { Schema, type SchemaAST } from "effect"

/** Whether a query-string field takes one string (else repeated values are collected in an array). */
const takesOneString = (ast: SchemaAST.AST, key?: PropertyKey): boolean => {
  switch (ast._tag) {
    case "StringKeyword":
    case "Literal":
    case "TemplateLiteral":
    case "Enums":
      return true
    case "TypeLiteral": {
      if (key === undefined) return false
      const property = ast.propertySignatures.find((signature) => signature.name === key)
      return property !== undefined
        ? takesOneString(property.type, key)
        : ast.indexSignatures.some((index) =>
          Schema.is(Schema.make(index.parameter))(key) && takesOneString(index.type)
        )
    }
    case "Union":
      return ast.types.some((member) => takesOneString(member, key))
    case "Suspend":
      return takesOneString(ast.f(), key)
    case "Refinement":
    case "Transformation":
      return takesOneString(ast.from, key)
    default:
      return false
  }
}

/** The query string as the platform hands it to a `urlParams` schema (its internal `normalizeUrlParams`). */
export const normalizeQuery = (
  query: Readonly<Record<string, string | ReadonlyArray<string>>>,
  ast: SchemaAST.AST
): Record<string, string | ReadonlyArray<string>> =>
  Object.fromEntries(
    Object.entries(query).map(([key, value]) => [key, typeof value !== "string" || takesOneString(ast, key) ? value : [value]])
  )
