import { describe, expect, it } from "vitest"
import { escapeHtml } from "./escapeHtml.ts"

describe("escapeHtml", () => {
  it("turns every character that could open markup or close an attribute into an entity", () => {
    expect(escapeHtml(`<script>alert("x")</script> & 'y'`)).toBe("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;")
  })

  it("leaves other text, unicode included, as it is", () => {
    expect(escapeHtml("Zürich — 東京 ✓")).toBe("Zürich — 東京 ✓")
  })
})
