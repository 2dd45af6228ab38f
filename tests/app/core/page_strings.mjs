// A language's game strings as the page gives them to the game: game.json with the locale's CLDR
// data and number words (generator/render/game_locale.py game_strings, through the browser tests'
// harness, tests/helpers/game_harness.py), so a counted text is filled as on the page.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PYTHON = process.env.PYRAMIDE_PYTHON || `${ROOT}.venv/bin/python`;
const SCRIPT = "import json, sys; sys.path.insert(0, 'tests'); from helpers.game_harness import strings; "
  + 'print(json.dumps([strings(lang) for lang in sys.argv[1:]]))';

/** {lang: strings} for each language code of `langs`, from one Python process. */
export function pageStrings(langs) {
  const all = JSON.parse(execFileSync(PYTHON, ['-c', SCRIPT, ...langs], { cwd: ROOT, encoding: 'utf8' }));
  return Object.fromEntries(langs.map((lang, i) => [lang, all[i]]));
}
