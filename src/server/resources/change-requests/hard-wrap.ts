/**
 * What a line may always break before after a space (UAX #14, LB18): Latin, Greek and Cyrillic
 * letters, digits, opening brackets and quotes. Not closers or `,.;:!?/` (LB13), nor CJK
 * non-starters (LB16).
 */
const BREAKABLE_AFTER_SPACE =
  /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Nd}\p{Ps}\p{Pi}\p{Pf}"']/u;
/** Openers and quotes hold on to what follows them, spaces included (LB14, LB15). */
const HOLDS_NEXT = /[\p{Ps}\p{Pi}\p{Pf}"'«»]/u;

/**
 * Cuts every word wider than `maxWidth` into pieces no wider than it, by putting a newline between
 * the pieces. pdfkit's line wrapper splits an over-long word itself, but re-measures the whole rest
 * of the word for every line it takes off, so a 50,000-character word cost it seconds (quadratic).
 * Here each character is measured once (`widthOf` is expected to be cached by the caller), in one
 * pass. A newline rather than a soft hyphen: a mandatory break is honoured whatever surrounds it,
 * where a break opportunity is not.
 *
 * A "word" is what the wrapper cannot break (UAX #14), taken conservatively: a space ends a word
 * only when a break is certainly allowed there: before a letter, a digit, an opener or a quote,
 * and not after an opener or a quote (`x ) ) )` or `( ( ( x` have spaces and no break at all). A run wrongly taken for one word only
 * gets a break a little earlier than the wrapper would have chosen; text that wraps normally is
 * left untouched.
 */
export function hardWrap(
  text: string,
  maxWidth: number,
  widthOf: (char: string) => number,
): string {
  const out: string[] = [];
  let start = 0;
  let wordWidth = 0;
  let index = 0;
  let afterSpace = false;
  let lastVisible = '';
  for (const char of text) {
    if (char === '\n' || char === '\r') {
      wordWidth = 0;
      afterSpace = false;
    } else if (char === ' ' || char === '\t') {
      afterSpace = true;
      wordWidth += widthOf(char);
    } else {
      if (afterSpace && !HOLDS_NEXT.test(lastVisible) && BREAKABLE_AFTER_SPACE.test(char)) {
        wordWidth = 0;
      }
      afterSpace = false;
      lastVisible = char;
      const width = widthOf(char);
      // A character wider than the line still gets a line of its own.
      if (wordWidth > 0 && wordWidth + width > maxWidth) {
        out.push(text.slice(start, index), '\n');
        start = index;
        wordWidth = 0;
      }
      wordWidth += width;
    }
    index += char.length;
  }
  if (start === 0) return text;
  out.push(text.slice(start));
  return out.join('');
}
