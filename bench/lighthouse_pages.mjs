// Lighthouse on several pages in one Node process and one Chromium: the CLI pays Node's start,
// Lighthouse's load and a Chromium launch for every page (about 5 s of each 11 s run here).
//   node bench/lighthouse_pages.mjs LIGHTHOUSE_DIR CATEGORIES CHROME_FLAGS URL...
// CHROME_PATH names the browser. Prints a JSON list of Lighthouse results (lhr), one per URL, in order.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const [dir, categories, chromeFlags, ...urls] = process.argv.slice(2);
const from = (...parts) => import(pathToFileURL(join(dir, 'node_modules', ...parts)).href);
const { default: lighthouse } = await from('lighthouse', 'core', 'index.js');
const { launch, Launcher } = await from('chrome-launcher', 'dist', 'index.js');

// The launcher's own flags but one: they turn off RenderDocument (a new document in a new frame
// for each navigation, which Chrome does by default) to work around a Lighthouse bug
// (GoogleChrome/lighthouse#16363). With it off, Chromium 156 here held the first paint back to
// 1.1–2.3 s after navigation in most runs, long after the page was ready (the contact page
// too), so Lighthouse counted every script as run before the first paint. With Chrome's own
// setting the first paint came at 0.23–0.76 s in every run (bench/lighthouse.py says more).
const flags = Launcher.defaultFlags().map(flag => !flag.startsWith('--disable-features=') ? flag
  : '--disable-features=' + flag.slice('--disable-features='.length).split(',').filter(f => f !== 'RenderDocument').join(','));
if (flags.join(' ') === Launcher.defaultFlags().join(' ')) throw new Error('chrome-launcher no longer turns RenderDocument off: drop this filter');
const chrome = await launch({ chromePath: process.env.CHROME_PATH, ignoreDefaultFlags: true,
  chromeFlags: [...flags, ...(process.platform === 'linux' ? ['--disable-setuid-sandbox'] : []), ...chromeFlags.split(' ')] });
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
