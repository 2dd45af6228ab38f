// Numbers, dates and counted words as the page's language writes them, from the CLDR data the generator puts in
// the page (strings.locale, from Babel: the very data the pages' own numbers and dates come from,
// generator/render/game_locale.py), so the game and the text around it agree.
// Not Intl: a page's first Intl object costs about 90 ms of main thread while ICU loads its
// locale data (Chromium, measured), one long task on every load for a "0" and a date.
// Whole numbers only: every number the game writes is a count, a score or a whole percent.

/**
 * A function giving the CLDR plural category of a whole number ('one', 'few', …, 'other'), from the
 * locale's rule as generator/render/game_locale.py hands it over (Babel's): the first category whose
 * condition holds, else 'other'. Of a whole number the fraction operands (v, w, f, t) and the exponent (e, c) are 0.
 */
export function pluralCategory(locale) {
  const holds = (c, ops) => {
    if (c.or) return c.or.some((x) => holds(x, ops));
    if (c.and) return c.and.every((x) => holds(x, ops));
    if (c.not) return !holds(c.not, ops);
    const x = c.mod ? ops[c.of] % c.mod : ops[c.of];
    return c.in.some(([low, high]) => x >= low && x <= high);
  };
  return (value) => {
    const n = Math.abs(Math.trunc(value));
    const ops = { n, i: n, v: 0, w: 0, f: 0, t: 0, e: 0, c: 0 };
    const found = locale.plural.find(([, condition]) => holds(condition, ops));
    return found ? found[0] : 'other';
  };
}

/**
 * A function writing a count as the pages' `spell` does (generator/render/context.py Words.spell):
 * 0 to 12 as the language's word (numbers.yml; 1 in the common gender, as the nouns counted in
 * the game's "other" forms take it), a larger count with the locale's digits.
 */
export function countWordFormatter(locale) {
  const num = numberFormatter(locale);
  const { counts = {}, one = {} } = locale.words;
  return (value) => ((value === 1 ? one.c : counts[String(value)]) ?? num(value));
}

/** A function writing a whole number with the locale's grouping: nb «4 294 967 295», da «4.294.967.295». */
export function numberFormatter(locale) {
  const { group, primary, secondary, minus } = locale.number;
  return (value) => {
    const digits = String(Math.abs(Math.trunc(value)));
    const parts = [];
    let end = digits.length;
    let size = primary;
    while (end > size) { // as Babel groups: a group whenever more digits are left than the size
      parts.unshift(digits.slice(end - size, end));
      end -= size;
      size = secondary;
    }
    parts.unshift(digits.slice(0, end));
    return (value < 0 ? minus : '') + parts.join(group);
  };
}

/** A function writing a date 'YYYY-MM-DD' in the locale's long form: nb «1. desember 2026». */
export function dateFormatter(locale) {
  const { pattern, months } = locale.date;
  return (iso) => {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
    if (!m) return iso;
    const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const fields = { d: String(day), dd: m[3], M: String(month), MM: m[2], MMMM: months[month - 1], y: String(year), yyyy: m[1] };
    // The pattern's tokens, as generator/render/game_locale.py allows them: fields, quoted text, the rest as it is.
    return pattern.replace(/'([^']*)'|d+|M+|y+/g, (token, quoted) => (quoted !== undefined ? quoted || "'" : fields[token]));
  };
}
