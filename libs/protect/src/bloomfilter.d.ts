// Types for the `bloomfilter` package (jasondavies/bloomfilter.js), which ships none.
declare module "bloomfilter" {
  export class BloomFilter {
    /** `m` bits (rounded up to a multiple of 32), or the buckets of a filter to load; `k` hash functions. */
    constructor(m: number | ArrayLike<number>, k: number)
    readonly m: number
    readonly k: number
    readonly buckets: Uint32Array
    add(value: string | number): void
    test(value: string | number): boolean
  }
}
