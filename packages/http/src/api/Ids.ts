/**
 * Path ids are taken as any text and read by core's one id parser (`Ids.parseId`, in
 * `core/src/shared/Ids.ts`): a UUID in any case names the resource, anything else names nothing
 * and is a 404 like any unknown id, never a 422.
 */
import { Ids } from "@costline/core"

export const parseId = Ids.parseId
