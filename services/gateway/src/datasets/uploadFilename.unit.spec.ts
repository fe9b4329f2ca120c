import { describe, expect, it } from "@effect/vitest"
import { uploadFilename } from "./uploadFilename.ts"

describe("uploadFilename", () => {
  it("keeps only the base name of a path, with either separator (RFC 7578 §4.2)", () => {
    expect(uploadFilename("../../../etc/passwd.csv")).toBe("passwd.csv")
    expect(uploadFilename("..\\..\\win.ini.csv")).toBe("win.ini.csv")
    expect(uploadFilename("a/b/c.csv")).toBe("c.csv")
    expect(uploadFilename("C:\\Users\\ana\\data.csv")).toBe("data.csv")
    expect(uploadFilename("/abs/path/mixed\\sep.csv")).toBe("sep.csv")
  })

  it("turns the browser's %22, %0D and %0A back, then drops the control characters", () => {
    expect(uploadFilename("a%22b.csv")).toBe("a\"b.csv")
    expect(uploadFilename("evil%0D%0Aname.csv")).toBe("evilname.csv")
    expect(uploadFilename("tab\there\u0000.csv\u007f\u0085")).toBe("tabhere.csv")
    // Other percent escapes are the name as sent.
    expect(uploadFilename("100%25.csv")).toBe("100%25.csv")
  })

  it("keeps every printable character, Unicode included", () => {
    expect(uploadFilename("<script>alert(1)</script>.csv"), "a / is a separator wherever it is").toBe("script>.csv")
    for (const name of ["naïve résumé.csv", "<img src=x onerror=alert(1)>.csv", "x'; DROP TABLE datasets;--.csv", "数据.csv"]) {
      expect(uploadFilename(name)).toBe(name)
    }
  })

  it("names an upload with nothing left `upload`", () => {
    for (const name of ["", "../", "..", "a/..", "  ", "dir/", "\u0001"]) expect(uploadFilename(name), name).toBe("upload")
  })
})
