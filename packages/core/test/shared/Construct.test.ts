/**
 * `Construct.validatedOnce(C)` makes what `new C(props)` makes, and refuses what it refuses: the
 * same defaults, the same checks, excess props left out. Shown on the insight list's query, the
 * class it serves (fields with defaults, refinements and transformations), over arbitrary props.
 */
import { Construct, Insight } from "@costline/core"
import { describe, expect, it } from "@effect/vitest"
import { DateTime, FastCheck, ParseResult } from "effect"

const make = Construct.validatedOnce(Insight.InsightListQuery)

type Props = Exclude<ConstructorParameters<typeof Insight.InsightListQuery>[0], void>

/** `f()`'s value, or the class of what it threw. */
const outcome = (f: () => unknown): { readonly value: unknown } | { readonly threw: string } => {
  try {
    return { value: f() }
  } catch (error) {
    return { threw: error instanceof ParseResult.ParseError ? "ParseError" : String(error) }
  }
}

const maybe = <A>(arbitrary: FastCheck.Arbitrary<A>) => FastCheck.option(arbitrary, { nil: undefined })

/** Props that are often valid and often not: out-of-range page sizes, unknown statuses, odd values. */
const props: FastCheck.Arbitrary<Props> = FastCheck.record({
  filters: maybe(FastCheck.record({
    status__in: maybe(FastCheck.array(FastCheck.constantFrom("open", "resolved", "dismissed", "in_progress", "nope"), { maxLength: 3 })),
    is_current: maybe(FastCheck.boolean()),
    view_count__gte: maybe(FastCheck.integer({ min: -5, max: 5 })),
    first_viewed_at__gte: maybe(FastCheck.integer({ min: 0, max: 2_000_000_000_000 }).map((millis) => DateTime.unsafeMake(millis)))
  }, { requiredKeys: [] })),
  sort_by: maybe(FastCheck.constantFrom("create_time", "update_time", "severity", "title", "")),
  sort_order: maybe(FastCheck.constantFrom("asc", "desc", "up")),
  max_results: maybe(FastCheck.oneof(FastCheck.integer({ min: -2, max: 1_200 }), FastCheck.double())),
  page_token: maybe(FastCheck.string({ maxLength: 8 }))
}, { requiredKeys: [] }).map((record) =>
  Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as unknown as Props
)

describe("Construct.validatedOnce", () => {
  it("makes and refuses what the class's own constructor does", () =>
    FastCheck.assert(
      FastCheck.property(props, (given) => {
        const ours = outcome(() => make(given))
        const theirs = outcome(() => new Insight.InsightListQuery(given))
        if ("threw" in theirs) {
          expect(ours).toStrictEqual(theirs)
          return
        }
        expect("value" in ours).toBe(true)
        const value = (ours as { readonly value: unknown }).value
        expect(value).toBeInstanceOf(Insight.InsightListQuery)
        expect(value).toStrictEqual(theirs.value)
      }),
      { numRuns: 500 }
    ))

  it("applies the constructor's defaults", () => {
    const query = make({})
    expect(query.sort_by).toBe("create_time")
    expect(query.sort_order).toBe("desc")
    expect(query.filters).toStrictEqual({})
    expect(query).toStrictEqual(new Insight.InsightListQuery({}))
  })

  it("leaves out props the class does not declare, as the constructor does", () => {
    const given = { max_results: 5, extra: "x" } as unknown as Props
    const query = make(given)
    expect(Object.keys(query)).not.toContain("extra")
    expect(query).toStrictEqual(new Insight.InsightListQuery(given))
  })

  it("refuses a page size outside the class's range", () => {
    expect(() => make({ max_results: 0 })).toThrow(ParseResult.ParseError)
    expect(() => make({ max_results: 1.5 })).toThrow(ParseResult.ParseError)
  })
})
