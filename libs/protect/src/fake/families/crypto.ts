import { bech32Charset, bech32Polymod, bitcoinAddress } from "@synth/pii"
import type { CandidateSource, CompileContext, LearnContext } from "../family.ts"
import type { CryptoChain, FakeGenerator } from "../FakePlan.ts"
import { heldMix, orDefault } from "../mix.ts"

/**
 * Wallet addresses of the column's kinds: Ethereum (`0x` and 40 hex digits), Bitcoin P2PKH (`1…`) and P2SH (`3…`) with
 * their Base58Check checksum, and SegWit (`bc1q…`) with its bech32 checksum (BIP 173).
 */
type CryptoGenerator = Extract<FakeGenerator, { _tag: "crypto" }>

const chainOf = (value: string): CryptoChain | undefined => {
  if (/^0x[0-9a-fA-F]{40}$/.test(value)) return "ethereum"
  if (/^1[1-9A-HJ-NP-Za-km-z]{25,34}$/.test(value)) return "bitcoin_p2pkh"
  if (/^3[1-9A-HJ-NP-Za-km-z]{25,34}$/.test(value)) return "bitcoin_p2sh"
  if (/^(bc1|BC1)[02-9ac-hj-np-zAC-HJ-NP-Z]{11,71}$/.test(value)) return "bitcoin_segwit"
  return undefined
}

export const learnCrypto = (values: ReadonlyArray<string>, context: LearnContext): CryptoGenerator => {
  const chains = values.map((value) => chainOf(value.trim())).filter((chain): chain is CryptoChain => chain !== undefined)
  return { _tag: "crypto", formats: orDefault(heldMix(chains, (chain) => chain, context.k), "ethereum") }
}

export const defaultCrypto: CryptoGenerator = { _tag: "crypto", formats: [{ value: "ethereum", rows: 1 }] }

/** A P2WPKH address: witness version 0 and a 20-byte program, regrouped into 5-bit words, with the bech32 checksum. */
const segwitAddress = (bytes: ReadonlyArray<number>) => {
  const words: Array<number> = [0]
  let accumulator = 0
  let bits = 0
  for (const byte of bytes) {
    accumulator = (accumulator << 8) | byte
    bits += 8
    while (bits >= 5) {
      bits -= 5
      words.push((accumulator >>> bits) & 31)
    }
  }
  if (bits > 0) words.push((accumulator << (5 - bits)) & 31)
  const checksum = bech32Polymod([3, 3, 0, 2, 3, ...words, 0, 0, 0, 0, 0, 0]) ^ 1
  const check = Array.from({ length: 6 }, (_, index) => (checksum >>> (5 * (5 - index))) & 31)
  return `bc1${[...words, ...check].map((word) => bech32Charset[word]).join("")}`
}

export const compileCrypto = (generator: CryptoGenerator, context: CompileContext): CandidateSource => {
  const { draws } = context
  const pick = draws.weighted(generator.formats)
  const hex = (count: number) => {
    let text = ""
    while (text.length < count) text += draws.random.uint32().toString(16).padStart(8, "0")
    return text.slice(0, count)
  }
  const base58 = (lead: string) => {
    // The pii generator draws the version byte itself: half its draws start with the wanted one.
    for (;;) {
      const address = bitcoinAddress(draws)
      if (address.startsWith(lead)) return address
    }
  }
  return () => {
    const chain = pick()
    const text =
      chain === "ethereum"
        ? `0x${hex(40)}`
        : chain === "bitcoin_segwit"
          ? segwitAddress(Array.from({ length: 20 }, () => draws.integer(0, 255)))
          : base58(chain === "bitcoin_p2pkh" ? "1" : "3")
    return { text, key: cryptoKey(text) }
  }
}

/** Hex and bech32 addresses ignore case; Base58 does not. */
export const cryptoKey = (value: string) => {
  const text = value.trim()
  return /^0x|^bc1/i.test(text) ? text.toLowerCase() : text
}
