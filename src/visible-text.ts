/**
 * Text that shows what it holds. A server's or a program's text may hold
 * characters a reader does not see as they are: they reorder what follows
 * (the bidirectional controls, U+202E), end a line where none shows (U+2028),
 * show nothing (zero-width and other default-ignorable characters, fillers
 * and blanks such as U+3164 and U+2800), look like a plain space (U+00A0),
 * or draw over the text around them (a combining overlay such as U+0338, or
 * marks stacked on one letter until they cover the lines above and below:
 * "Zalgo" text).
 * A line that holds them shows something else than it reads: the "Trojan
 * Source" pattern in program text, a hidden instruction in a review note, a
 * summary line that seems to end early. Wherever such text is shown, each of
 * them is written as its escape (`\u202E`), which reads as the same character
 * in a TypeScript string and shows what it is on a terminal or a page.
 */

/**
 * The characters shown as their escape: control (C0, C1), format (the
 * bidirectional controls, zero-width ones), surrogate, private-use and
 * unassigned code points, the line and paragraph separators, every
 * default-ignorable code point (variation selectors, the combining grapheme
 * joiner, tags, Hangul fillers), the Braille blank (a blank that is not
 * whitespace), every space separator but the plain space, the combining marks
 * drawn through the character before them (Unicode's overlay class, and the
 * overlaid arrows U+20D4 to U+20D6), and every combining mark after the
 * second on one character: no script needs a third to be read, and a run of
 * them draws over the neighbouring lines.
 */
export const DECEPTIVE_CHARACTERS =
  /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800\u0334-\u0338\u1CD4\u1CE2-\u1CE8\u20D2-\u20D6\u20D8-\u20DA\u20E5\u20E6\u20EA\u20EB\u{10A39}\u{16AF0}-\u{16AF4}\u{1BC9E}\u{1D167}-\u{1D169}]|(?! )\p{Zs}|(?<=\p{M}\p{M})\p{M}/gu;

/** A character's escape as JavaScript reads it: `\u202E`, and `\u{E0100}` beyond the first plane. */
export function escapeOf(character: string): string {
  const point = character.codePointAt(0)!;
  return point > 0xffff ? `\\u{${point.toString(16).toUpperCase()}}` : `\\u${point.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Text with every deceptive character as its escape. */
export const visible = (text: string): string => text.replace(DECEPTIVE_CHARACTERS, escapeOf);
