/** Secrets at rest: envelope encryption under configurable, rotatable master keys. */
export * as Envelope from "./Envelope.js"
export { SealedSecret, type SecretAad, SecretUnreadable } from "./Envelope.js"
export * as MasterKeys from "./MasterKeys.js"
export { Secrets, type SecretsService } from "./Secrets.js"
export * as SecretFields from "./SecretFields.js"
export * as KeyCheck from "./KeyCheck.js"
export { SecretKeyCheckRepo, SecretKeyRefused } from "./KeyCheck.js"
