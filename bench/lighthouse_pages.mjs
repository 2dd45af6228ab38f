// Lighthouse on several pages in one Node process and one Chromium: the CLI pays Node's start,
// Lighthouse's load and a Chromium launch for every page (about 5 s of each 11 s run here).
//   node bench/lighthouse_pages.mjs LIGHTHOUSE_DIR CATEGORIES CHROME_FLAGS URL...
// CHROME_PATH names the browser. Prints a JSON list of Lighthouse results (lhr), one per URL, in order.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const [dir, categories, chromeFlags, ...urls] = process.argv.slice(2);
const from = (...parts) => import(pathToFileURL(join(dir, 'node_modules', ...parts)).href);
const { default: lighthouse } = await from('lighthouse', 'core', 'index.js');
const { launch } = await from('chrome-launcher', 'dist', 'index.js');

const chrome = await launch({ chromePath: process.env.CHROME_PATH, chromeFlags: chromeFlags.split(' ') });
try {
  const results = [];
  for (const url of urls) {
    // As the CLI does by default (mobile, simulated throttling); no full-page screenshot, which
    // only illustrates the HTML report and scores nothing.
    const run = await lighthouse(url, {
      port: chrome.port, output: 'json', logLevel: 'error',
      onlyCategories: categories.split(','), disableFullPageScreenshot: true,
    });
    results.push(run.lhr);
  }
  process.stdout.write(JSON.stringify(results));
} finally {
  await chrome.kill();
}
