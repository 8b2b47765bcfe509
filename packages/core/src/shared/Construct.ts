/**
 * Building a `Schema.Class` value on a request's path. The class's own constructor validates its
 * props against the fields' type side, and Effect 3 derives that type side (`SchemaAST.typeAST`)
 * on every call: for fields with transformations or defaults it is a new AST each time, so the
 * validator compiled for it (cached by AST) is compiled again per value — for the insight list's
 * query about 2% of a list request's CPU, most of the bytes `ParseResult` allocated (issue 19).
 * The constructor made here validates with the same fields, compiled once.
 *
 * @since 0.1.0
 */
import { ParseResult, Schema } from "effect"

/**
 * A class whose constructor takes its props and, as a second argument, `true` to skip validation
 * (what `Schema.Class` constructors accept).
 * @since 0.1.0
 * @category models
 */
export interface ValidatingClass<A, Props> {
  new(props: Props, disableValidation?: boolean): A
  readonly fields: Schema.Struct.Fields
}

/**
 * `new klass(props)`, validated exactly as its constructor validates (its fields' type side, after
 * the constructor's defaults are applied), by a validator compiled once. Throws the constructor's
 * `ParseError` on invalid props.
 * @since 0.1.0
 * @category constructors
 */
export const validatedOnce = <A, Props>(klass: ValidatingClass<A, Props>): (props: Props) => A => {
  const validate = ParseResult.validateSync(Schema.Struct(klass.fields))
  // The constructor applies the defaults, then the check's output (the fields, excess props left
  // out) is what the value is made of, as in the constructor.
  return (props) => new klass(validate({ ...new klass(props, true) }) as Props, true)
}
