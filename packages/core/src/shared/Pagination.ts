/** Shared page-size rules of the v2 lists. */
export const DEFAULT_PAGE_SIZE = 50
export const MAX_PAGE_SIZE = 500

export interface Page<A> {
  readonly items: ReadonlyArray<A>
  /** Opaque; null when there is nothing after this page. */
  readonly page_token: string | null
}
