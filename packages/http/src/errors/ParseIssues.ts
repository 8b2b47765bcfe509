/**
 * Flattens an Effect `ParseIssue` tree into field-level issues: the path of the field, the kind
 * of problem, a one-line message and the value received there. Walks the tree the way Effect's
 * `ArrayFormatter` does, but keeps what that formatter drops: the received value (FastAPI echoes
 * it as `input`) and the expected type (FastAPI names it in `type`).
 */
import { Option, ParseResult, SchemaAST } from "effect"
import type { ExpectedType, IssueKind, RequestIssue } from "./Problem.js"

export type DecodedIssue = Omit<RequestIssue, "location">

const format = (issue: ParseResult.ParseIssue): string => ParseResult.TreeFormatter.formatIssueSync(issue)

/**
 * A failed check or transformation speaks with its own `message` annotation when it has one (as
 * in Effect's formatters), else with the single-line message of what failed inside it.
 */
const ownOrInnerMessage = (issue: ParseResult.Refinement | ParseResult.Transformation): string =>
  plainMessage(format(Option.isSome(SchemaAST.getMessageAnnotation(issue.ast)) ? issue : issue.issue))

const isEnum = (ast: SchemaAST.AST): boolean =>
  SchemaAST.isLiteral(ast) || SchemaAST.isEnums(ast) ||
  (SchemaAST.isUnion(ast) && ast.types.every((member) => SchemaAST.isLiteral(member)))

const expectedType = (ast: SchemaAST.AST): ExpectedType | undefined => {
  switch (ast._tag) {
    case "StringKeyword":
    case "TemplateLiteral":
      return "string"
    case "BooleanKeyword":
      return "boolean"
    case "NumberKeyword":
      return "number"
    case "TypeLiteral":
      return "object"
    case "TupleType":
      return "array"
    default:
      return undefined
  }
}

const members = <A>(single: A | ReadonlyArray<A>): ReadonlyArray<A> =>
  Array.isArray(single) ? single : [single as A]

/**
 * An optional field is a union with `undefined`; that a present value is not `undefined` is no
 * news to anyone, so that member's complaint is dropped when others remain.
 */
const withoutOptionalMember = (issues: ReadonlyArray<ParseResult.ParseIssue>) => {
  const relevant = issues.filter((issue) => !(issue._tag === "Type" && SchemaAST.isUndefinedKeyword(issue.ast)))
  return relevant.length > 0 ? relevant : issues
}

const withoutUndefined = (union: SchemaAST.Union): SchemaAST.AST =>
  SchemaAST.Union.make(union.types.filter((member) => !SchemaAST.isUndefinedKeyword(member)))

const leaf = (
  path: ReadonlyArray<PropertyKey>,
  issue: IssueKind,
  message: string,
  input: unknown,
  expected?: ExpectedType
): DecodedIssue => ({ path, issue, message, input, expected })

const ACTUAL = ", actual "

/**
 * Effect names an object or array type by its whole structure (`Expected ReadonlyArray<{ readonly
 * role: … }>`, or `Expected Struct (Encoded side)` for a class): framework text, not an answer. A
 * client needs the JSON type; the field's own schema says the rest.
 */
const PLAIN_TYPE_NAMES: Partial<Record<ExpectedType, string>> = { object: "a JSON object", array: "an array" }

const typeMessage = (issue: ParseResult.Type, expected: ExpectedType | undefined): string => {
  const message = format(issue)
  const plain = expected === undefined ? undefined : PLAIN_TYPE_NAMES[expected]
  const actualAt = message.indexOf(ACTUAL)
  return plain !== undefined && message.startsWith("Expected ") && actualAt > 0
    ? `Expected ${plain}${message.slice(actualAt)}`
    : message
}

const typeLeaf = (path: ReadonlyArray<PropertyKey>, issue: ParseResult.Type): DecodedIssue => {
  if (isEnum(issue.ast)) return leaf(path, "invalid_enum", format(issue), issue.actual)
  const expected = expectedType(issue.ast)
  return leaf(path, "invalid_type", typeMessage(issue, expected), issue.actual, expected)
}

/** Effect's DateTime schemas say `Unable to decode "x" into a DateTime.Utc`: its own type name. */
const DATE_TIME_FAILURE = /^Unable to decode (.*) into a DateTime\.(?:Utc|Zoned)$/s

const plainMessage = (message: string): string =>
  message.replace(DATE_TIME_FAILURE, `Expected an ISO 8601 date-time such as 2024-05-01T12:00:00Z${ACTUAL}$1`)

/**
 * A nullable field that fails its non-null member (a bad email, an unparsable date) also fails
 * `null`; that second complaint says nothing the client did not know and doubled every such
 * field. It is dropped when another member has something to say.
 */
const withoutNullMember = (issues: ReadonlyArray<ParseResult.ParseIssue>) => {
  const relevant = issues.filter((issue) =>
    !(issue._tag === "Type" && SchemaAST.isLiteral(issue.ast) && issue.ast.literal === null)
  )
  return relevant.length > 0 ? relevant : issues
}

const walk = (issue: ParseResult.ParseIssue, path: ReadonlyArray<PropertyKey>, parent: unknown): Array<DecodedIssue> => {
  switch (issue._tag) {
    case "Pointer":
      return walk(issue.issue, [...path, ...members(issue.path)], issue.actual)
    case "Missing":
      // The object that lacks the field is what a client needs to see, not `undefined`.
      return [leaf(path, "missing", issue.message ?? "is required", parent)]
    case "Unexpected":
      return [leaf(path, "unexpected", issue.message ?? "is not allowed", issue.actual)]
    case "Forbidden":
      return [leaf(path, "invalid_value", format(issue), issue.actual)]
    case "Type":
      return [typeLeaf(path, issue)]
    case "Composite": {
      const inner = withoutOptionalMember(members(issue.issues))
      // A value that matches no member of a union is one problem: "Expected a | b, actual c".
      if (SchemaAST.isUnion(issue.ast) && inner.every((member) => member._tag === "Type")) {
        return [typeLeaf(path, new ParseResult.Type(withoutUndefined(issue.ast), issue.actual))]
      }
      const complaints = SchemaAST.isUnion(issue.ast) ? withoutNullMember(inner) : inner
      return complaints.flatMap((member) => walk(member, path, issue.actual))
    }
    case "Refinement":
      // A failed predicate is a bad value; a failure before the predicate is whatever it was.
      if (issue.kind !== "Predicate") return walk(issue.issue, path, parent)
      // A check of a whole object that names the field at fault (`{ path, message }`) reports there.
      if (issue.issue._tag === "Pointer") {
        const at = members(issue.issue.path)
        const value = at.reduce<unknown>((v, key) => (typeof v === "object" && v !== null ? (v as any)[key] : undefined), issue.actual)
        return [leaf([...path, ...at], "invalid_value", format(issue.issue.issue), value)]
      }
      return [leaf(path, "invalid_value", ownOrInnerMessage(issue), issue.actual)]
    case "Transformation":
      return issue.kind === "Transformation"
        ? [leaf(path, "invalid_value", ownOrInnerMessage(issue), issue.actual)]
        : walk(issue.issue, path, parent)
  }
}

/** Every field-level problem in the issue tree, in the order the schema reported them. */
export const fieldIssues = (issue: ParseResult.ParseIssue): ReadonlyArray<DecodedIssue> => walk(issue, [], undefined)
