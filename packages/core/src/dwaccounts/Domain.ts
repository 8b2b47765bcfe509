/**
 * Data-warehouse accounts and the key-pair credentials used to reach them. The private key is
 * write-only: requests carry it in, storage keeps it sealed (see secrets/), and the account shows
 * only the public key fingerprint.
 */
import { Schema } from "effect"
import { OrganizationId } from "../shared/Ids.js"
import { storable } from "../shared/StorableText.js"

/**
 * @since 0.1.0
 * @category schemas
 */
export const DwAccountId = Schema.UUID.pipe(Schema.brand("DwAccountId"))
/**
 * @since 0.1.0
 * @category models
 */
export type DwAccountId = typeof DwAccountId.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const AuthenticationMethod = Schema.Literal("key_pair")
/**
 * @since 0.1.0
 * @category models
 */
export type AuthenticationMethod = typeof AuthenticationMethod.Type

const nonBlank = (maxLength: number) =>
  storable(Schema.String).pipe(
    Schema.filter((s) => s.trim().length > 0, { message: () => "must not be empty" }),
    Schema.maxLength(maxLength)
  )

/**
 * @since 0.1.0
 * @category utils
 */
export const DwAccountName = nonBlank(200)

/**
 * The warehouse user the key authenticates (Snowflake allows up to 255 characters).
 * @since 0.1.0
 * @category utils
 */
export const WarehouseUsername = nonBlank(255)

/**
 * @since 0.1.0
 * @category models
 */
export class DwAccount extends Schema.Class<DwAccount>("DwAccount")({
  id: DwAccountId,
  organization_id: OrganizationId,
  name: Schema.String,
  authentication_method: AuthenticationMethod,
  /** The warehouse user the key authenticates; null until a request names one. */
  username: Schema.NullOr(Schema.String),
  /** `SHA256:<base64>` of the current public key; null until credentials are first set. */
  public_key_fingerprint: Schema.NullOr(Schema.String),
  credentials_updated_at: Schema.NullOr(Schema.DateTimeUtc),
  created_at: Schema.DateTimeUtc,
  updated_at: Schema.DateTimeUtc,
  etag: Schema.String
}) {}

/**
 * Accounts are created by an operator (`costline dw-accounts create`), credentials come later.
 * @since 0.1.0
 * @category models
 */
export class CreateDwAccount extends Schema.Class<CreateDwAccount>("CreateDwAccount")({
  name: DwAccountName,
  username: Schema.optional(WarehouseUsername)
}) {}

/**
 * Absent and null both mean "no passphrase": FastAPI clients of v1 send null for an optional
 * field, and v2 merge patch uses null for "remove", which for a write-only field is the same.
 */
const Passphrase = Schema.optional(Schema.NullOr(Schema.String))

/**
 * Unknown members of a patch are an error, not silently dropped: a key sent under a misspelt
 * name must not look like a successful rotation.
 */
const strict = { parseOptions: { onExcessProperty: "error" } } as const

/**
 * v2 `credentials` of a PATCH: replaces the key pair (and the username when given).
 * @since 0.1.0
 * @category models
 */
export class KeyPairCredentials extends Schema.Class<KeyPairCredentials>("KeyPairCredentials")(
  Schema.Struct({
    authentication_method: AuthenticationMethod,
    username: Schema.optional(WarehouseUsername),
    private_key: Schema.String,
    private_key_passphrase: Passphrase
  }).annotations(strict)
) {}

/**
 * v2 `PATCH /dw-accounts/{dw_account_id}` (merge patch). Neither member accepts null: an account
 * always has a name, and credentials are replaced, never removed.
 * @since 0.1.0
 * @category models
 */
export class DwAccountPatch extends Schema.Class<DwAccountPatch>("DwAccountPatch")(
  Schema.Struct({
    name: Schema.optional(DwAccountName),
    credentials: Schema.optional(KeyPairCredentials)
  }).annotations(strict)
) {}

/**
 * v1 `PUT /dw-accounts/{dw_account_uuid}/credentials`.
 * @since 0.1.0
 * @category models
 */
export class CredentialsPut extends Schema.Class<CredentialsPut>("CredentialsPut")({
  private_key: Schema.String,
  private_key_passphrase: Passphrase
}) {}
