/** The body of v1 operations that answer nothing but success: `{"success": true}`. */
import { Schema } from "effect"

export const Success = Schema.Struct({ success: Schema.Literal(true) }).annotations({ identifier: "Success" })

export const success: typeof Success.Type = { success: true }
