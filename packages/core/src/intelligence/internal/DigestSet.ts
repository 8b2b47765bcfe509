/**
 * A set of strings by their 64-bit digests, in two typed arrays: what an ingestion needs to count
 * a QUERY_ID once, at 16 bytes an id (a `Set<string>` of a million ids takes about 100 MB and
 * keeps the garbage collector busy). Two ids with the same digest would be taken for one: with
 * two independent 32-bit hashes the chance among a million ids is about 3 × 10⁻⁸.
 */

/** FNV-1a (32 bits) over UTF-16 code units, from a given basis. */
const fnv1a = (text: string, basis: number) => {
  let hash = basis
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}

/** A second, independent 32-bit hash (murmur3's mixing of each code unit). */
const murmurish = (text: string) => {
  let hash = 0x9747b28c
  for (let i = 0; i < text.length; i++) {
    let k = Math.imul(text.charCodeAt(i), 0xcc9e2d51)
    k = (k << 15) | (k >>> 17)
    hash ^= Math.imul(k, 0x1b873593)
    hash = (hash << 13) | (hash >>> 19)
    hash = (Math.imul(hash, 5) + 0xe6546b64) | 0
  }
  hash ^= text.length
  hash ^= hash >>> 16
  hash = Math.imul(hash, 0x85ebca6b)
  hash ^= hash >>> 13
  hash = Math.imul(hash, 0xc2b2ae35)
  hash ^= hash >>> 16
  return hash >>> 0
}

export interface DigestSet {
  /** Adds the text; false when (its digest) was already there. */
  readonly add: (text: string) => boolean
  readonly size: () => number
}

export const makeDigestSet = (initialCapacity = 1 << 16): DigestSet => {
  // Open addressing, linear probing; slot i holds (high[i], low[i]), and high 0 with low 0 is empty
  // (a digest of 0:0 is stored as 0:1: one more collision in 2⁶⁴).
  let capacity = 1 << Math.ceil(Math.log2(Math.max(16, initialCapacity)))
  let high = new Uint32Array(capacity)
  let low = new Uint32Array(capacity)
  let size = 0

  const insert = (h: number, l: number): boolean => {
    const mask = capacity - 1
    for (let slot = (h ^ Math.imul(l, 0x9e3779b1)) & mask;; slot = (slot + 1) & mask) {
      const sh = high[slot]!
      const sl = low[slot]!
      if (sh === 0 && sl === 0) {
        high[slot] = h
        low[slot] = l
        size++
        return true
      }
      if (sh === h && sl === l) return false
    }
  }

  const grow = () => {
    const oldHigh = high
    const oldLow = low
    capacity *= 2
    high = new Uint32Array(capacity)
    low = new Uint32Array(capacity)
    size = 0
    for (let i = 0; i < oldHigh.length; i++) {
      if (oldHigh[i] !== 0 || oldLow[i] !== 0) insert(oldHigh[i]!, oldLow[i]!)
    }
  }

  return {
    add: (text) => {
      // At most half full: probes stay short.
      if ((size + 1) * 2 > capacity) grow()
      const h = fnv1a(text, 0x811c9dc5)
      const l = murmurish(text)
      return insert(h, h === 0 && l === 0 ? 1 : l)
    },
    size: () => size
  }
}
