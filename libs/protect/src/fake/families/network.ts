import type { CandidateSource, CompileContext, LearnContext } from "../family.ts"
import type { FakeGenerator, IpFormat, MacFormat } from "../FakePlan.ts"
import { countBy, heldMix, orDefault } from "../mix.ts"

/**
 * IP and MAC addresses: version, writing and case as the column has them; a network (leading octets, IPv6 groups) or
 * a vendor (a MAC's first three bytes) when ≥ k rows share it, random elsewhere.
 */
type IpGenerator = Extract<FakeGenerator, { _tag: "ip" }>
type MacGenerator = Extract<FakeGenerator, { _tag: "mac" }>

const ipv4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/

/** An IPv6 address as its eight groups (`::` expanded), or undefined. */
const ipv6Groups = (value: string): Array<string> | undefined => {
  if (!/^[0-9a-fA-F:]+$/.test(value) || value.split("::").length > 2) return undefined
  const [head, tail] = value.includes("::") ? value.split("::") : [value, undefined]
  const left = head === "" ? [] : head!.split(":")
  const right = tail === undefined || tail === "" ? [] : tail.split(":")
  const missing = 8 - left.length - right.length
  if (tail === undefined ? missing !== 0 : missing < 1) return undefined
  const groups = [...left, ...Array.from({ length: missing }, () => "0"), ...right]
  return groups.every((group) => /^[0-9a-fA-F]{1,4}$/.test(group)) ? groups.map((group) => group.toLowerCase().padStart(4, "0")) : undefined
}

const prefixKeys = (parts: ReadonlyArray<string>, joiner: string) => [parts.slice(0, 2).join(joiner), parts[0]!]

export const learnIp = (values: ReadonlyArray<string>, context: LearnContext): IpGenerator => {
  // A full-length IPv6 address without zero-led groups reads either way: the column decides, by whether any of its
  // addresses writes a group's leading zeros.
  const leadingZeros = values.some((value) => /(?:^|:)0[0-9a-fA-F]{3}(?=:|$)/.test(value.trim()))
  const parsed: Array<{ version: 4 | 6; parts: ReadonlyArray<string>; compressed: boolean; upperCase: boolean }> = []
  for (const value of values) {
    const text = value.trim()
    const v4 = ipv4.exec(text)
    if (v4 !== null) {
      parsed.push({ version: 4, parts: v4.slice(1, 5).map((octet) => String(Number(octet))), compressed: false, upperCase: false })
      continue
    }
    const groups = ipv6Groups(text)
    if (groups !== undefined) parsed.push({ version: 6, parts: groups, compressed: !leadingZeros, upperCase: /[A-F]/.test(text) })
  }
  // The longest network (two leading parts, else one) that ≥ k rows share.
  const prefixRows = countBy(parsed.flatMap((address) => prefixKeys(address.parts, address.version === 4 ? "." : ":").map((prefix) => `${address.version}|${prefix}`)), (key) => key)
  const formats: Array<IpFormat> = parsed.map((address) => {
    const joiner = address.version === 4 ? "." : ":"
    const prefix = prefixKeys(address.parts, joiner).find((candidate) => (prefixRows.get(`${address.version}|${candidate}`) ?? 0) >= context.k) ?? ""
    return { version: address.version, prefix, compressed: address.compressed, upperCase: address.upperCase }
  })
  return { _tag: "ip", formats: orDefault(heldMix(formats, (format) => `${format.version}|${format.prefix}|${format.compressed}|${format.upperCase}`, context.k), defaultIpFormat) }
}

const defaultIpFormat: IpFormat = { version: 4, prefix: "", compressed: false, upperCase: false }

export const defaultIp: IpGenerator = { _tag: "ip", formats: [{ value: defaultIpFormat, rows: 1 }] }

/** Groups without leading zeros and the longest run of zero groups as `::` (RFC 5952). */
const compress = (groups: ReadonlyArray<string>) => {
  const short = groups.map((group) => group.replace(/^0+(?=.)/, ""))
  let bestStart = -1
  let bestLength = 1
  for (let start = 0; start < 8; start++) {
    let length = 0
    while (start + length < 8 && short[start + length] === "0") length++
    if (length > bestLength) {
      bestStart = start
      bestLength = length
    }
  }
  if (bestStart < 0) return short.join(":")
  return `${short.slice(0, bestStart).join(":")}::${short.slice(bestStart + bestLength).join(":")}`
}

export const compileIp = (generator: IpGenerator, context: CompileContext): CandidateSource => {
  const { draws } = context
  const pick = draws.weighted(generator.formats)
  const octet = () => String(draws.integer(0, 255))
  return () => {
    const format = pick()
    if (format.version === 4) {
      const known = format.prefix === "" ? [] : format.prefix.split(".")
      // Without a learned network: a public unicast first octet (not 0, 10, 127 or multicast and above).
      const first = known[0] ?? String(draws.pick([draws.integer(1, 9), draws.integer(11, 126), draws.integer(128, 223)]))
      const octets = [first, known[1] ?? octet(), octet(), String(draws.integer(1, 254))]
      const text = octets.join(".")
      return { text, key: text }
    }
    const known = format.prefix === "" ? ["2001"] : format.prefix.split(":")
    const groups = Array.from({ length: 8 }, (_, index) => known[index] ?? draws.random.uint32().toString(16).slice(-4).padStart(4, "0"))
    const written = format.compressed ? compress(groups) : groups.join(":")
    return { text: format.upperCase ? written.toUpperCase() : written, key: groups.join(":") }
  }
}

/** IPv6 in full lower-case groups, so `2001:db8::1` and its long form are one address. */
export const ipKey = (value: string) => {
  const text = value.trim()
  const v4 = ipv4.exec(text)
  if (v4 !== null) return v4.slice(1, 5).map((octet) => String(Number(octet))).join(".")
  return ipv6Groups(text)?.join(":") ?? text.toLowerCase()
}

// ---------------------------------------------------------------------------------------------------------------------

const macHex = (value: string) => value.replace(/[^0-9a-fA-F]/g, "")

export const learnMac = (values: ReadonlyArray<string>, context: LearnContext): MacGenerator => {
  const parsed = values
    .map((value) => value.trim())
    .filter((value) => macHex(value).length === 12)
    .map((value) => ({
      hex: macHex(value).toUpperCase(),
      separator: (value.includes(":") ? ":" : value.includes("-") ? "-" : value.includes(".") ? "." : "") as MacFormat["separator"],
      upperCase: /[A-F]/.test(value) || !/[a-f]/.test(value)
    }))
  const vendorRows = countBy(parsed, (mac) => mac.hex.slice(0, 6))
  const formats = parsed.map((mac): MacFormat => ({
    separator: mac.separator,
    upperCase: mac.upperCase,
    vendor: (vendorRows.get(mac.hex.slice(0, 6)) ?? 0) >= context.k ? mac.hex.slice(0, 6) : ""
  }))
  return { _tag: "mac", formats: orDefault(heldMix(formats, (format) => `${format.separator}|${format.upperCase}|${format.vendor}`, context.k), defaultMacFormat) }
}

const defaultMacFormat: MacFormat = { separator: ":", upperCase: false, vendor: "" }

export const defaultMac: MacGenerator = { _tag: "mac", formats: [{ value: defaultMacFormat, rows: 1 }] }

const writeMac = (hex: string, separator: MacFormat["separator"]) =>
  separator === "." ? hex.match(/.{4}/g)!.join(".") : hex.match(/.{2}/g)!.join(separator)

export const compileMac = (generator: MacGenerator, context: CompileContext): CandidateSource => {
  const { draws } = context
  const pick = draws.weighted(generator.formats)
  const hexDigits = (count: number) => {
    let text = ""
    while (text.length < count) text += draws.random.uint32().toString(16).padStart(8, "0")
    return text.slice(0, count).toUpperCase()
  }
  return () => {
    const format = pick()
    // A drawn vendor part is a unicast, globally administered one: the first byte's two low bits clear.
    const vendor = format.vendor !== "" ? format.vendor : (draws.integer(0, 63) * 4).toString(16).padStart(2, "0").toUpperCase() + hexDigits(4)
    const hex = vendor + hexDigits(6)
    const text = writeMac(format.upperCase ? hex : hex.toLowerCase(), format.separator)
    return { text, key: hex.toLowerCase() }
  }
}

export const macKey = (value: string) => macHex(value).toLowerCase()
