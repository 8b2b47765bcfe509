/**
 * Closures that die young stay in the young generation.
 *
 * V8's parser marks a function literal assigned straight to a property (`obj.f = () => …`,
 * `obj[k] = function () …`) as long-lived, guessing a method being installed, and allocates each
 * closure it makes there in the old generation. Such a closure made per request is garbage when
 * the request ends but stays in the old generation until the next full collection, and until
 * then its pointers into the young generation are roots of every young collection: the context it
 * closes over, and everything reachable from it, is copied and then promoted (issue 19).
 *
 * Effect's runtime does this for every asynchronous operation (`Effect.async`'s resume), every
 * interruptible or uninterruptible region and every `uninterruptibleMask` (`effect_instruction_i1
 * = () => self`), and pg for every query (`query.callback = (err, res) => …`): a served PATCH
 * promoted ~13 KB, a whole request's state (docs/performance.md, session 19). Written as a comma
 * expression (`obj.f = (0, () => …)`) the value is not a function literal to the parser, so the
 * closure is allocated young; nothing else changes (a function assigned to a property is not
 * named after it either way).
 *
 * `keepClosuresYoung` rewrites a module's source so; `youngClosures` is the esbuild plugin that
 * applies it to the bundle's dependencies (`bundle.mjs`). Hosts that bundle the unbundled
 * libraries themselves can apply the same function (docs/embedding.md).
 */
import { parse } from "acorn"
import { readFileSync } from "node:fs"

const FUNCTION_LITERALS = new Set(["ArrowFunctionExpression", "FunctionExpression"])

/**
 * Cheap pre-check, so only modules that may hold one are parsed: a member (`.name`, `.#name` or `[…]`)
 * assigned something that starts like a function literal.
 */
const MAYBE = /(?:\.#?[\w$]+|\])\s*=\s*(?:async\b\s*)?(?:function\b|\(|[\w$]+\s*=>)/

/** Every node of an acorn tree, depth first. */
const visit = (node, onNode) => {
  onNode(node)
  for (const key in node) {
    const value = node[key]
    if (value === null || typeof value !== "object" || key === "loc") continue
    if (Array.isArray(value)) {
      for (const item of value) if (item !== null && typeof item.type === "string") visit(item, onNode)
    } else if (typeof value.type === "string") {
      visit(value, onNode)
    }
  }
}

const parsed = (source) => {
  const options = { ecmaVersion: "latest", allowHashBang: true, allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true }
  try {
    return parse(source, { ...options, sourceType: "module" })
  } catch {
    return parse(source, { ...options, sourceType: "script" })
  }
}

/** What may follow an arrow function's block body within its statement; anything else ended the statement by ASI. */
const AFTER_BLOCK_ARROW = /^[;,)\]}:]/
const SPACE_AND_COMMENTS = /^(?:\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*/

/**
 * Whether the statement ends right after `arrow` by an inserted semicolon: `a.f = () => {}` and a
 * next line starting with `(`, `[`, `` ` `` or an operator. Wrapped as `(0, () => {})`, that line
 * would continue the expression (a call, an index…), so the rewrite writes the semicolon.
 */
const endsByInsertedSemicolon = (source, arrow) => {
  if (arrow.type !== "ArrowFunctionExpression" || arrow.body.type !== "BlockStatement") return false
  const rest = source.slice(arrow.end).replace(SPACE_AND_COMMENTS, "")
  return rest !== "" && !AFTER_BLOCK_ARROW.test(rest)
}

/**
 * `source` with every function literal assigned to a property wrapped as `(0, …)`; the number
 * rewritten beside it. Throws when `source` does not parse.
 */
export const keepClosuresYoung = (source) => {
  if (!MAYBE.test(source)) return { source, rewritten: 0 }
  const spans = []
  visit(parsed(source), (node) => {
    if (node.type === "AssignmentExpression" && node.operator === "=" && node.left.type === "MemberExpression" && FUNCTION_LITERALS.has(node.right.type)) {
      spans.push([node.right.start, node.right.end, endsByInsertedSemicolon(source, node.right)])
    }
  })
  if (spans.length === 0) return { source, rewritten: 0 }
  // From the end, so earlier offsets stay valid; nested literals are each wrapped.
  const edits = spans.flatMap(([start, end, semicolon]) => [[end, semicolon ? ");" : ")"], [start, "(0, "]]).sort((a, b) => b[0] - a[0])
  let text = source
  for (const [at, insert] of edits) text = text.slice(0, at) + insert + text.slice(at)
  return { source: text, rewritten: spans.length }
}

/**
 * The esbuild plugin: every JavaScript module of a dependency (`node_modules`) through
 * `keepClosuresYoung`. A module that does not parse is left to esbuild as it is.
 */
export const youngClosures = {
  name: "young-closures",
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/].*\.[cm]?js$/ }, (args) => {
      const source = readFileSync(args.path, "utf8")
      try {
        const result = keepClosuresYoung(source)
        return result.rewritten === 0 ? undefined : { contents: result.source, loader: "js" }
      } catch {
        return undefined
      }
    })
  }
}
