/**
 * The warehouse accounts service. Private keys are validated and sealed before any transaction
 * (key derivation can take a moment, and no lock should wait for it); the account row, its sealed
 * key and the `connections` audit record are then written in one transaction. The audit record
 * names the change by the public key's fingerprint, never the key.
 */
import { Context, DateTime, Effect, Layer, Option, Redacted, Schema } from "effect"
import { AuditLog } from "../audit/AuditLog.js"
import { Organizations } from "../identity/Organizations.js"
import type { SealedSecret, SecretAad, SecretUnreadable } from "../secrets/Envelope.js"
import { Secrets } from "../secrets/Secrets.js"
import type { Actor } from "../shared/Actor.js"
import { conditionalWrite, stale, written } from "../shared/internal/ConditionalWrite.js"
import {
  type Conflict,
  FieldIssue,
  NotFound,
  type StoreUnavailable,
  ValidationFailed,
  orNotFound
} from "../shared/Errors.js"
import { newId, type OrganizationId } from "../shared/Ids.js"
import * as Precondition from "../shared/Precondition.js"
import { Transactor } from "../shared/Transactor.js"
import * as Change from "./Change.js"
import type { CreateDwAccount, CredentialsPut, DwAccount, DwAccountId, DwAccountPatch } from "./Domain.js"
import * as PrivateKey from "./PrivateKey.js"
import { DwAccountsRepo } from "./Repo.js"

/** What is sealed: JSON, so that more secret material can join the key without a new format. */
const StoredCredentials = Schema.parseJson(Schema.Struct({ private_key: Schema.String }))
const encodeStored = Schema.encodeSync(StoredCredentials)
const decodeStored = Schema.decodeUnknown(StoredCredentials)

/**
 * What an update can fail with; `Failed<P>` only when it holds an `If-Match`.
 * @since 0.1.0
 * @category models
 */
export type UpdateError = NotFound | ValidationFailed | Conflict | StoreUnavailable

/**
 * @since 0.1.0
 * @category tags
 */
export class DwAccounts extends Context.Tag("@costline/core/DwAccounts")<
  DwAccounts,
  {
    /** An unknown organization → NotFound. */
    readonly create: (
      actor: Actor,
      organizationId: OrganizationId,
      input: CreateDwAccount
    ) => Effect.Effect<DwAccount, NotFound | StoreUnavailable>
    readonly get: (organizationId: OrganizationId, id: DwAccountId) => Effect.Effect<DwAccount, NotFound | StoreUnavailable>
    /**
     * v2 merge patch. Under an `If-Match`, the account must still match it, else
     * PreconditionFailed. A patch that changes nothing writes nothing and returns the account as is.
     */
    readonly update: <P extends Precondition.Precondition>(
      actor: Actor,
      organizationId: OrganizationId,
      id: DwAccountId,
      patch: DwAccountPatch,
      precondition: P
    ) => Effect.Effect<DwAccount, UpdateError | Precondition.Failed<P>>
    /** v1: replaces the key pair, keeping the username. */
    readonly replaceCredentials: (
      actor: Actor,
      organizationId: OrganizationId,
      id: DwAccountId,
      input: CredentialsPut
    ) => Effect.Effect<DwAccount, UpdateError>
    /** The private key (unencrypted PKCS#8 PEM), for the code that connects to the warehouse. */
    readonly openPrivateKey: (
      organizationId: OrganizationId,
      id: DwAccountId
    ) => Effect.Effect<Redacted.Redacted<string>, NotFound | SecretUnreadable | StoreUnavailable>
  }
>() {}

const aadOf = (account: Pick<DwAccount, "organization_id" | "id">): SecretAad => ({
  tenant: account.organization_id,
  recordId: account.id
})

/** Key issues are reported where the key was in the request: `credentials.private_key` in v2. */
const nestedUnder = (prefix: string | undefined) => (error: ValidationFailed): ValidationFailed =>
  prefix === undefined ? error : new ValidationFailed({
    message: error.message,
    details: error.details.map((issue) => new FieldIssue({ ...issue, field: `${prefix}.${issue.field}` }))
  })

const what = (id: DwAccountId) => `dw account ${id}`

interface Request {
  readonly name?: string | undefined
  readonly username?: string | undefined
  readonly key?: PrivateKey.PrivateKeyInput | undefined
  /** Where the key's members sit in the request body, for error locations. */
  readonly keyField?: string | undefined
}

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = Effect.gen(function*() {
  const repo = yield* DwAccountsRepo
  const audit = yield* AuditLog
  const tx = yield* Transactor
  const secrets = yield* Secrets
  const organizations = yield* Organizations

  const get = (organizationId: OrganizationId, id: DwAccountId) =>
    repo.findById(organizationId, id).pipe(orNotFound("dw account", id))

  const sealKey = (account: DwAccount, key: PrivateKey.PrivateKeyInput, keyField: string | undefined) =>
    Effect.gen(function*() {
      const validated = yield* Effect.mapError(PrivateKey.validate(key), nestedUnder(keyField))
      const sealed = yield* secrets.seal(encodeStored({ private_key: validated.pkcs8 }), aadOf(account))
      return { sealed, fingerprint: validated.publicKeyFingerprint }
    })

  /** The change decided from the account as stored now, written if that is still current. */
  const write = (
    actor: Actor,
    organizationId: OrganizationId,
    change: Change.AccountChange,
    sealed: SealedSecret | undefined
  ) =>
  (current: DwAccount) =>
    Effect.gen(function*() {
      const next = Change.apply(current, change, yield* DateTime.now)
      if (next === undefined) return written(current)
      const wrote = yield* repo.update(next, { expectedEtag: current.etag, ...(sealed ? { credentials: sealed } : {}) })
      if (!wrote) return stale
      yield* audit.record(actor, organizationId, Change.DwAccountAudit.updated(current, next))
      return written(next)
    })

  const change = <P extends Precondition.Precondition>(
    actor: Actor,
    organizationId: OrganizationId,
    id: DwAccountId,
    request: Request,
    precondition: P
  ) =>
    Effect.gen(function*() {
      // Unknown account and stale precondition are answered before any work is spent on the key.
      const seen = yield* get(organizationId, id)
      yield* Precondition.check(precondition, seen.etag, what(id))
      const key = request.key === undefined ? undefined : yield* sealKey(seen, request.key, request.keyField)
      const wanted = { name: request.name?.trim(), username: request.username, publicKeyFingerprint: key?.fingerprint }
      return yield* tx.withTransaction(conditionalWrite({
        what: what(id),
        precondition,
        read: get(organizationId, id),
        write: write(actor, organizationId, wanted, key?.sealed)
      }))
    })

  return DwAccounts.of({
    create: (actor, organizationId, input) =>
      tx.withTransaction(Effect.gen(function*() {
        // Checked here, not left to the foreign key: an unknown organization is the caller's mistake.
        yield* organizations.get(organizationId)
        const account = Change.initial({
          id: yield* newId<"DwAccountId">(),
          organization_id: organizationId,
          name: input.name.trim(),
          username: input.username ?? null,
          now: yield* DateTime.now
        })
        yield* repo.insert(account)
        yield* audit.record(actor, organizationId, Change.DwAccountAudit.created(account))
        return account
      })),
    get,
    update: (actor, organizationId, id, patch, precondition) =>
      change(actor, organizationId, id, {
        name: patch.name,
        username: patch.credentials?.username,
        key: patch.credentials && {
          privateKey: patch.credentials.private_key,
          passphrase: patch.credentials.private_key_passphrase
        },
        keyField: "credentials"
      }, precondition),
    replaceCredentials: (actor, organizationId, id, input) =>
      change(actor, organizationId, id, {
        key: { privateKey: input.private_key, passphrase: input.private_key_passphrase }
      }, Precondition.none),
    openPrivateKey: (organizationId, id) =>
      Effect.gen(function*() {
        const account = yield* get(organizationId, id)
        const sealed = yield* repo.findCredentials(organizationId, id)
        if (Option.isNone(sealed)) {
          return yield* new NotFound({ resource: "credentials of dw account", id })
        }
        const text = yield* secrets.open(sealed.value, aadOf(account))
        // The secret opened, so it is what `encodeStored` wrote: anything else is a bug.
        const stored = yield* Effect.orDie(decodeStored(text))
        return Redacted.make(stored.private_key)
      })
  })
})

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = Layer.effect(DwAccounts, make)
