/**
 * The little of better-sqlite3 and pg the baseline uses (neither ships types, and the lockfile
 * is not the bench's to change for @types packages).
 */
declare module "better-sqlite3" {
  export interface Statement {
    readonly reader: boolean
    /** Rows as arrays of column values instead of objects. */
    raw(toggle: boolean): this
    all(...params: ReadonlyArray<unknown>): Array<any>
    run(...params: ReadonlyArray<unknown>): unknown
  }
  export default class Database {
    constructor(filename: string)
    pragma(pragma: string): unknown
    prepare(sql: string): Statement
    exec(sql: string): this
    close(): void
  }
}

declare module "pg" {
  export interface QueryResult {
    readonly rows: Array<Record<string, any>>
  }
  export interface PoolClient {
    query(sql: string, params?: Array<unknown>): Promise<QueryResult>
    release(): void
  }
  export class Pool {
    constructor(options: { readonly connectionString: string; readonly max: number })
    query(sql: string, params?: Array<unknown>): Promise<QueryResult>
    query(config: { readonly text: string; readonly values: Array<unknown>; readonly rowMode: "array" }): Promise<{ readonly rows: Array<Array<any>> }>
    connect(): Promise<PoolClient>
    end(): Promise<void>
  }
  const pg: { readonly Pool: typeof Pool }
  export default pg
}

/** node-postgres's own serialisation of parameters, which the bench's array literals must equal. */
declare module "pg/lib/utils.js" {
  const utils: { readonly prepareValue: (value: unknown) => string | null }
  export default utils
}
