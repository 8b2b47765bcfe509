/**
 * The little of better-sqlite3 and pg the baseline uses (neither ships types, and the lockfile
 * is not the bench's to change for @types packages).
 */
declare module "better-sqlite3" {
  export interface Statement {
    readonly reader: boolean
    all(...params: ReadonlyArray<unknown>): Array<Record<string, any>>
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
    connect(): Promise<PoolClient>
    end(): Promise<void>
  }
  const pg: { readonly Pool: typeof Pool }
  export default pg
}
