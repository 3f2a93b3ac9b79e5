/**
 * Combining marks that draw over the text around them: the overlays (U+0334
 * to U+0338, U+20D2 to U+20D6, ...) and a run of marks stacked on one letter
 * ("Zalgo" text). In a review note's code element and in the importer's
 * string literals each is its escape, which reads as the same character; a
 * letter with one or two marks, as many scripts write, stays as it is.
 */
import { describe, expect, it } from "vitest";
import { stringLiteral } from "../src/import/program";
import { code } from "../src/review/markdown";
import { visible } from "../src/visible-text";

const ZALGO = "Z\u0351\u036B\u0343\u036A\u0302o\u0310\u0346\u0352";

describe("marks drawn over the text", () => {
  it("each overlay mark is its escape", () => {
    for (const point of [0x0334, 0x0335, 0x0336, 0x0337, 0x0338, 0x20d2, 0x20d3, 0x20d4, 0x20d5, 0x20d6]) {
      const mark = String.fromCodePoint(point);
      expect(visible(`a${mark}b`), point.toString(16)).toBe(`a\\u${point.toString(16).toUpperCase().padStart(4, "0")}b`);
    }
  });

  it("a mark after the second on one letter is its escape; one or two stay", () => {
    expect(visible(ZALGO)).toBe("Z\u0351\u036B\\u0343\\u036A\\u0302o\u0310\u0346\\u0352");
    for (const text of ["Việt Nam", "café", "ǘ", "naïve", "שָׁלוֹם"]) expect(visible(text), text).toBe(text);
  });

  it("the review note's code element and the importer's literal show them as escapes, reading as the same text", () => {
    const text = `scan\u0338 ${ZALGO}`;
    expect(code(text)).not.toMatch(/\u0338|\u0343/);
    expect(code(text)).toContain("scan\\u0338");
    const literal = stringLiteral(text);
    expect(literal).not.toMatch(/\u0338|\u0343/);
    expect(JSON.parse(literal.replace(/\\u\{([0-9A-F]+)\}/g, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16))))).toBe(text);
  });
});
