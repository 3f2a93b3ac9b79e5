/**
 * Text that shows what it holds. A server's or a program's text may hold
 * characters a reader does not see as they are: they reorder what follows
 * (the bidirectional controls, U+202E), end a line where none shows (U+2028),
 * show nothing (zero-width and other default-ignorable characters, fillers
 * and blanks such as U+3164 and U+2800), or look like a plain space (U+00A0).
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
 * whitespace), and every space separator but the plain space.
 */
export const DECEPTIVE_CHARACTERS = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800]|(?! )\p{Zs}/gu;

/** A character's escape as JavaScript reads it: `\u202E`, and `\u{E0100}` beyond the first plane. */
export function escapeOf(character: string): string {
  const point = character.codePointAt(0)!;
  return point > 0xffff ? `\\u{${point.toString(16).toUpperCase()}}` : `\\u${point.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Text with every deceptive character as its escape. */
export const visible = (text: string): string => text.replace(DECEPTIVE_CHARACTERS, escapeOf);
