/** The little of better-sqlite3 the store uses directly (the package ships no types). */
declare module "better-sqlite3" {
  namespace Database {
    interface Statement {
      readonly reader: boolean
      /** False for a statement that writes (an `UPDATE … RETURNING` too); BEGIN, COMMIT, SAVEPOINT are read-only. */
      readonly readonly: boolean
      raw(toggle?: boolean): Statement
      pluck(toggle?: boolean): Statement
      get(...params: ReadonlyArray<unknown>): unknown
      safeIntegers(toggle?: boolean): Statement
      all(...params: ReadonlyArray<unknown>): Array<any>
      run(...params: ReadonlyArray<unknown>): { readonly changes: number; readonly lastInsertRowid: number | bigint }
    }
  }
  class Database {
    constructor(filename: string, options?: { readonly fileMustExist?: boolean; readonly readonly?: boolean })
    prepare(sql: string): Database.Statement
    pragma(source: string): unknown
    close(): void
  }
  export default Database
}
