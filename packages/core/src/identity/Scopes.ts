/**
 * Checks the scopes of role grants against the tenant, and names the scopes of stored grants.
 * A scope id must name something that exists in the organization, except the external ids of
 * `dw_organization`, `lh_*` and `bi_site`, which costline does not hold.
 */
import { Context, Effect, Either, Layer } from "effect"
import { FieldIssue, type StoreUnavailable, ValidationFailed } from "../shared/Errors.js"
import type { OrganizationId } from "../shared/Ids.js"
import type { Role } from "./Domain.js"
import { type InternalScopeType, isExternal, type RoleGrant, Scope, ScopeDirectory, type ScopeInput, scopeKey, type ScopeRef } from "./Scope.js"

/**
 * A grant whose scope was checked.
 * @since 0.1.0
 * @category models
 */
export interface CheckedGrant {
  readonly role: Role
  readonly scope: ScopeRef
}

/**
 * The organization scope is the tenant itself; every other scope needs an id. Pure.
 * @since 0.1.0
 * @category utils
 */
export const normalizeScope = (organizationId: OrganizationId, input: ScopeInput): Either.Either<ScopeRef, string> => {
  const id = input.id?.trim()
  if (input.type === "organization") {
    return id === undefined || id === organizationId
      ? Either.right({ type: "organization", id: organizationId })
      : Either.left(`the organization scope of this tenant has id '${organizationId}'`)
  }
  return id === undefined ? Either.left(`a ${input.type} scope needs an id`) : Either.right({ type: input.type, id })
}

const at = (prefix: string, field: string) => (prefix.length === 0 ? field : `${prefix}.${field}`)

/**
 * @since 0.1.0
 * @category tags
 */
export class Scopes extends Context.Tag("@costline/core/Scopes")<
  Scopes,
  {
    /**
     * Checks grants before they are stored. Every bad scope is reported at once, at
     * `<fieldOf(index)>.scope.id`.
     */
    readonly checkGrants: (
      organizationId: OrganizationId,
      grants: ReadonlyArray<RoleGrant>,
      fieldOf: (index: number) => string
    ) => Effect.Effect<ReadonlyArray<CheckedGrant>, ValidationFailed | StoreUnavailable>
    /** The scopes of stored grants, with the current names of their targets. */
    readonly describe: (
      organizationId: OrganizationId,
      refs: ReadonlyArray<ScopeRef>
    ) => Effect.Effect<ReadonlyArray<Scope>, StoreUnavailable>
  }
>() {}

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = Effect.gen(function*() {
  const directory = yield* ScopeDirectory

  const namesOf = (organizationId: OrganizationId, refs: ReadonlyArray<ScopeRef>) =>
    directory.names(
      organizationId,
      refs.flatMap((ref) => (isExternal(ref.type) ? [] : [{ type: ref.type as InternalScopeType, id: ref.id }]))
    )

  const nameOf = (names: ReadonlyMap<string, string>, ref: ScopeRef): string | undefined =>
    isExternal(ref.type) ? ref.id : names.get(scopeKey(ref))

  return Scopes.of({
    checkGrants: (organizationId, grants, fieldOf) =>
      Effect.gen(function*() {
        const normalized = grants.map((grant) => Either.map(normalizeScope(organizationId, grant.scope), (scope) => ({ role: grant.role, scope })))
        const names = yield* namesOf(organizationId, normalized.flatMap((grant) => (Either.isRight(grant) ? [grant.right.scope] : [])))
        // Every grant's problem, in the order the grants were given.
        const issues = normalized.flatMap((grant, index) => {
          const problem = Either.isLeft(grant)
            ? grant.left
            : nameOf(names, grant.right.scope) === undefined
            ? `no ${grant.right.scope.type} '${grant.right.scope.id}' in this organization`
            : undefined
          return problem === undefined
            ? []
            : [new FieldIssue({ field: at(fieldOf(index), "scope.id"), issue: "invalid", message: problem })]
        })
        if (issues.length > 0) {
          const message = issues.length === 1 ? issues[0]!.message : `${issues.length} scopes are invalid`
          return yield* new ValidationFailed({ message, details: issues })
        }
        return normalized.flatMap((grant): Array<CheckedGrant> => (Either.isRight(grant) ? [grant.right] : []))
      }),
    describe: (organizationId, refs) =>
      Effect.map(namesOf(organizationId, refs), (names) =>
        refs.map((ref) => new Scope({ type: ref.type, id: ref.id, name: nameOf(names, ref) ?? null })))
  })
})

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = Layer.effect(Scopes, make)
