import { describe, expect, it } from "vitest"
import { defaultFileName } from "./destination.ts"

const id = "0199a7e4-1111-7000-8000-00000000beef"

describe("defaultFileName", () => {
  it("takes the server's name, its exact filename* over the ASCII fallback", () => {
    expect(defaultFileName(`attachment; filename="penguins.csv"`, id, undefined)).toBe("penguins.csv")
    expect(defaultFileName(`attachment; filename="M_nchen.parquet"; filename*=UTF-8''M%C3%BCnchen.parquet`, id, "parquet")).toBe("München.parquet")
  })

  it("keeps the name in the current directory: no path, no leading dots, no control or reserved characters", () => {
    expect(defaultFileName(`attachment; filename="../../etc/passwd"`, id, undefined)).toBe("passwd")
    expect(defaultFileName(`attachment; filename*=UTF-8''..%5C..%5Cwin.ini`, id, undefined)).toBe("win.ini")
    expect(defaultFileName(`attachment; filename=".bashrc"`, id, undefined)).toBe("bashrc")
    expect(defaultFileName(`attachment; filename*=UTF-8''a%0Ab%07c%3F.csv`, id, undefined)).toBe("abc_.csv")
  })

  it("names the file after the dataset and the format when the answer names none usable", () => {
    expect(defaultFileName(undefined, id, undefined)).toBe(`dataset-${id}.csv`)
    expect(defaultFileName("inline", id, "ndjson")).toBe(`dataset-${id}.ndjson`)
    expect(defaultFileName(`attachment; filename="../.."`, id, "json")).toBe(`dataset-${id}.json`)
    expect(defaultFileName(`attachment; filename=`, id, "parquet")).toBe(`dataset-${id}.parquet`)
    expect(defaultFileName(undefined, "../x y", undefined)).toBe("dataset-___x_y.csv")
  })
})
