// The variants registry: every rule set the site names, as data, and the only list of them.
// Each entry: "id" (in links `#deal=N&rules=ID`, saved games, statistics, the survey's cache and
// `verify survey --variant ID`), "name" (the strings key of its name in each language's
// docs/LANG/strings.yml) and "rules" (its rules options: strictWin, turns, unlimitedTurns,
// stockTop, coverPair; docs/rules.md says what each changes). The app's rules ("standard") first.
//
// Pure data, no code, read by every part: the app's engine imports it as a module (engine.js
// VARIANTS: the page, the Hint worker and the checker's Node bridge load it with the engine, the
// page fetches nothing else), the independent engine reads the array below as JSON
// (verify/independent/variants.py: its data, never its code), and so do the survey, the bench,
// `python -m verify variants` (make survey) and the site's pages and rules choice
// (generator/inputs/variant_registry.py). So the array is strict JSON: keys and strings in
// double quotes, no comments inside it, no trailing commas, and the file ends with it.
// A variant made of these options is one entry here plus its texts (its name and description in
// each language); a new option is engine code in both engines first.
export const VARIANT_REGISTRY = [
  {"id": "standard", "name": "variants_names.standard", "rules": {}},
  {"id": "strict", "name": "variants_names.strict", "rules": {"strictWin": true}},
  {"id": "one-pass", "name": "variants_names.one-pass", "rules": {"turns": 0}},
  {"id": "unlimited", "name": "variants_names.unlimited", "rules": {"unlimitedTurns": true}},
  {"id": "stock-top", "name": "variants_names.stock-top", "rules": {"stockTop": true}},
  {"id": "cover-pair", "name": "variants_names.cover-pair", "rules": {"coverPair": true}}
];
