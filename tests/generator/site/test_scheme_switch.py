"""The colour scheme switch of the built site in Debian's Chromium (generator/assets/palette.js,
generator/overrides/partials/palette.html): it follows the device until the reader chooses, cycles
device → light → dark, keeps the choice from page to page, and a page load writes nothing to the
body's scheme when there is nothing to change (each such write restyles the whole page)."""
from pathlib import Path

import pytest
import yaml


ROOT = Path(__file__).resolve().parents[3]

SWITCH = "form[data-pyr-palette]"
# Every write to the body's attributes by a script as the page loads (a removal only when there
# was something to remove), each marked with whether the
# page's content had begun by then (the theme's own script for a kept choice sits in the header).
COUNT_BODY_WRITES = """
window.__bodyWrites = [];
for (const name of ['setAttribute', 'removeAttribute', 'toggleAttribute']) {
  const own = Element.prototype[name];
  Element.prototype[name] = function (attribute, ...rest) {
    const before = this.getAttribute(attribute);
    const result = own.call(this, attribute, ...rest);
    if (this === document.body && (name === 'setAttribute' || before !== this.getAttribute(attribute)))
      window.__bodyWrites.push({ name: attribute, parsed: Boolean(document.querySelector('.md-container')) });
    return result;
  };
}
"""


def state(page) -> tuple[str, int]:
    """The body's scheme, and which of the switch's labels is shown (the index of its option)."""
    return tuple(page.evaluate(f"""[document.body.dataset.mdColorScheme,
        [...document.querySelectorAll('{SWITCH} label')].findIndex(l => !l.hidden)]"""))


def press(page):
    page.locator(f"{SWITCH} label:not([hidden])").click()
    page.wait_for_function("() => !document.body.hasAttribute('data-md-color-switching')")


@pytest.mark.parametrize("lang", ["nb", "da"])
@pytest.mark.parametrize("device, other", [("light", "dark"), ("dark", "light")])
def test_the_switch_follows_the_device_until_the_reader_chooses(browser, site_url, lang, device, other):
    context = browser.new_context(color_scheme=device, viewport={"width": 390, "height": 800})
    try:
        page = context.new_page()
        page.goto(f"{site_url}/{lang}/", wait_until="load")
        scheme = {"light": "default", "dark": "slate"}
        assert state(page) == (scheme[device], 0)  # a first visit: the device's setting
        labels = page.locator(f"{SWITCH} label")
        words = yaml.safe_load((ROOT / "docs" / lang / "strings.yml").read_text(encoding="utf-8"))["theme"]["scheme"]
        # Each option's label says what pressing it does, in the page's language.
        assert [labels.nth(i).get_attribute("title") for i in range(3)] == [words["to_light"], words["to_dark"], words["to_system"]]
        page.emulate_media(color_scheme=other)  # followed while the reader has not chosen
        page.wait_for_function(f"() => document.body.dataset.mdColorScheme === '{scheme[other]}'")
        press(page)
        assert state(page) == ("default", 1)
        press(page)
        assert state(page) == ("slate", 2)
        page.emulate_media(color_scheme="light")  # a choice made: the device no longer decides
        assert state(page) == ("slate", 2)
        page.goto(f"{site_url}/{lang}/contact/", wait_until="load")  # kept on the next page
        assert state(page) == ("slate", 2)
        page.locator(f"{SWITCH} label:not([hidden])").focus()
        page.keyboard.press("Enter")  # as a click: back to the device's setting, light now
        page.wait_for_function("() => !document.body.hasAttribute('data-md-color-switching')")
        assert state(page) == ("default", 0)
        page.emulate_media(color_scheme="dark")
        page.wait_for_function("() => document.body.dataset.mdColorScheme === 'slate'")
    finally:
        context.close()


@pytest.mark.parametrize("device", ["light", "dark"])
def test_a_page_load_writes_nothing_to_the_body_when_the_scheme_stays(browser, site_url, device):
    """The theme's own switch script set and removed data-md-color-switching and rewrote the
    colours at every load: three whole-page restyles of the front page for nothing. Now only a
    first visit on a dark device changes the body once the page is parsed (its own scheme is
    light), and a kept choice is applied by the theme's script in the header, before the content."""
    context = browser.new_context(color_scheme=device, viewport={"width": 390, "height": 800})
    try:
        context.add_init_script(COUNT_BODY_WRITES)
        page = context.new_page()
        page.goto(f"{site_url}/nb/", wait_until="load")
        page.wait_for_timeout(300)  # past the switch's frame
        late = ["data-md-color-switching", "data-md-color-scheme", "data-md-color-switching"] if device == "dark" else []
        assert page.evaluate("window.__bodyWrites.filter(w => w.parsed).map(w => w.name)") == late
        for _ in range(2):  # the choice is kept (the device's setting): the next loads write nothing late
            page.reload(wait_until="load")
            page.wait_for_timeout(300)
            writes = page.evaluate("window.__bodyWrites")
            assert [w["name"] for w in writes if w["parsed"]] == []
            assert [w["name"] for w in writes] == ["data-md-color-media", "data-md-color-scheme",
                                                   "data-md-color-primary", "data-md-color-accent"]
            assert state(page) == ({"light": "default", "dark": "slate"}[device], 0)
    finally:
        context.close()
