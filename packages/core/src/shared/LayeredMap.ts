/**
 * A `Map` over a shared, unchanging base: reads fall through to the base, writes and deletes stay
 * in the layer. A request's context is the route's ~65 services with a handful of the request's
 * own entries over them; copying the services into a new `Map` for every request was ~14 KB of
 * allocation, a tenth of an insight read's (issue 19). Effect's `Context` holds its entries in a
 * plain `Map` (`unsafeMap`) and only calls `Map` methods on it, so a layered one serves it as is:
 * a lookup is at most two hash lookups, and whoever copies it (`Context.add`) gets a plain `Map`
 * with the same entries in the same precedence. Iterating (a copy, or the context diff of a
 * fiber's join) goes through a plain `Map` of all entries, made on the first iteration and kept
 * until the next write: a request that never iterates its context never copies it. Used for the
 * request's context (http's dispatch) and a transaction's (its connection over the caller's
 * context, store-sqlite).
 *
 * @since 0.1.0
 */
import { Context } from "effect"

/**
 * @since 0.1.0
 * @category models
 */
export class LayeredMap<K, V> extends Map<K, V> {
  #base: ReadonlyMap<K, V>
  /** Base keys deleted through this map; allocated on the first such delete (none in practice). */
  #hidden: Set<K> | undefined
  /** Every entry that shows, as a plain Map; made when first iterated, dropped by a write. */
  #flat: Map<K, V> | undefined

  constructor(base: ReadonlyMap<K, V>) {
    super()
    this.#base = base
  }

  /** The map beneath the layer. */
  get base(): ReadonlyMap<K, V> {
    return this.#base
  }

  /**
   * Puts the layer over `base` in place of the map beneath it; base keys deleted through this map
   * stay hidden. For a map one owner made and nobody else holds (a request's context, made by its
   * host and handed to its dispatch): everyone who holds it sees the new base.
   */
  rebase(base: ReadonlyMap<K, V>): void {
    this.#base = base
    this.#flat = undefined
    // Hidden keys are base keys (`size` counts on it).
    if (this.#hidden !== undefined) for (const key of this.#hidden) if (!base.has(key)) this.#hidden.delete(key)
  }

  /** Whether `key` is a base entry that shows through (not shadowed by the layer, not deleted). */
  #fromBase(key: K): boolean {
    return !super.has(key) && this.#base.has(key) && this.#hidden?.has(key) !== true
  }

  override get(key: K): V | undefined {
    if (super.has(key)) return super.get(key)
    return this.#hidden?.has(key) === true ? undefined : this.#base.get(key)
  }

  override has(key: K): boolean {
    return super.has(key) || (this.#base.has(key) && this.#hidden?.has(key) !== true)
  }

  override set(key: K, value: V): this {
    this.#hidden?.delete(key)
    this.#flat = undefined
    return super.set(key, value)
  }

  override delete(key: K): boolean {
    this.#flat = undefined
    const shown = this.#fromBase(key)
    // A base entry under a deleted layer entry must not show through either.
    if (this.#base.has(key)) (this.#hidden ??= new Set()).add(key)
    return super.delete(key) || shown
  }

  override clear(): void {
    this.#flat = undefined
    super.clear()
    this.#hidden = new Set(this.#base.keys())
  }

  /**
   * Counted from the layer, not the base (Effect hashes and compares contexts by their size):
   * hidden keys are base keys outside the layer.
   */
  override get size(): number {
    let shown = this.#base.size - (this.#hidden?.size ?? 0)
    for (const key of super.keys()) if (!this.#base.has(key)) shown++
    return shown
  }

  /** All entries that show: the base's not shadowed or deleted, then the layer's. */
  #entries(): Map<K, V> {
    if (this.#flat !== undefined) return this.#flat
    const flat = new Map<K, V>()
    for (const [key, value] of this.#base) if (this.#fromBase(key)) flat.set(key, value)
    for (const [key, value] of super.entries()) flat.set(key, value)
    return this.#flat = flat
  }

  override entries(): MapIterator<[K, V]> {
    return this.#entries().entries()
  }

  override keys(): MapIterator<K> {
    return this.#entries().keys()
  }

  override values(): MapIterator<V> {
    return this.#entries().values()
  }

  override [Symbol.iterator](): MapIterator<[K, V]> {
    return this.#entries().entries()
  }

  override forEach(callback: (value: V, key: K, map: Map<K, V>) => void, thisArg?: unknown): void {
    this.#entries().forEach((value, key) => callback.call(thisArg, value, key, this))
  }
}

/**
 * `context` with `entries` over it: `Context.add` for each, without copying `context`.
 * @since 0.1.0
 * @category constructors
 */
export const layeredContext = (
  context: Context.Context<never>,
  entries: ReadonlyArray<readonly [Context.Tag<any, any>, unknown]>
): Context.Context<never> => {
  const map = new LayeredMap<string, unknown>(context.unsafeMap)
  for (const [tag, service] of entries) map.set(tag.key, service)
  return Context.unsafeMake(map)
}
