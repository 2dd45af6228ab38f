"""The theme's script loaded when the reader first needs it (generator/assets/theme-on-demand.js,
generator/overrides/main.html's scripts block), in Debian's Chromium on the built site: a phone's
first visit never asks for it, each gesture that needs it brings it, and once there it works as if
it had come with the page: the search finds what it finds on a wide screen, where it comes at once."""
import pytest


PHONE = {"width": 390, "height": 800}
WIDE = {"width": 1280, "height": 800}
# Set once the theme's script has run: it publishes its streams on window.
THEME_RUNNING = "() => typeof window.component$ !== 'undefined'"
# The theme mounts what is in the page's content (the header's title, the sidebars, the table of
# contents) at its document's DOMContentLoaded: true once that has reached it.
CONTENT_MOUNTED = "() => { let seen = false; window.document$.subscribe(() => { seen = true; }); return seen; }"
SEARCH_WORD = {"nb": "kastebunken", "da": "afkastbunken"}


@pytest.fixture
def opened(browser, site_url):
    """A page at a viewport, with the addresses it asked for and its script errors."""
    contexts = []

    def open_page(path, viewport):
        context = browser.new_context(viewport=viewport, service_workers="block")
        contexts.append(context)
        page = context.new_page()
        page.asked = []
        page.errors = []
        page.on("request", lambda r: page.asked.append(r.url))
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.goto(f"{site_url}{path}", wait_until="load")
        page.wait_for_timeout(500)
        return page
    yield open_page
    for context in contexts:
        context.close()


def bundle_asked(page) -> int:
    return sum("/assets/javascripts/bundle." in url for url in page.asked)


def results_for(page, word) -> int:
    page.wait_for_selector("input.md-search__input:focus")
    page.keyboard.type(word, delay=40)
    page.wait_for_selector(".md-search-result__item")
    page.wait_for_timeout(300)  # the whole list
    return page.locator(".md-search-result__item").count()


@pytest.mark.parametrize("path", ["/nb/", "/da/", "/nb/examples/", "/da/contact/"])
def test_a_phones_first_visit_does_not_load_the_theme(opened, path):
    page = opened(path, PHONE)
    assert bundle_asked(page) == 0 and not page.evaluate(THEME_RUNNING)
    assert page.errors == []


@pytest.mark.parametrize("lang", ["nb", "da"])
def test_the_search_button_brings_the_theme_and_it_searches_as_on_a_wide_screen(opened, lang):
    wide = opened(f"/{lang}/", WIDE)
    assert bundle_asked(wide) == 1 and wide.evaluate(THEME_RUNNING)
    wide.locator("input.md-search__input").click()  # in the header itself on a wide screen
    expected = results_for(wide, SEARCH_WORD[lang])
    phone = opened(f"/{lang}/", PHONE)
    phone.locator("label.md-header__button[for=__search]").click()
    assert results_for(phone, SEARCH_WORD[lang]) == expected > 0  # started once: no result twice
    assert phone.evaluate(CONTENT_MOUNTED) and wide.evaluate(CONTENT_MOUNTED)
    assert bundle_asked(phone) == 1 and phone.errors == wide.errors == []


@pytest.mark.parametrize("key", ["/", "s", "f"])
def test_the_themes_search_keys_open_the_search_before_the_theme_is_there(opened, key):
    page = opened("/nb/", PHONE)
    page.keyboard.press(key)
    assert results_for(page, SEARCH_WORD["nb"]) > 0
    assert page.locator("input.md-search__input").input_value() == SEARCH_WORD["nb"]  # the key is not typed
    assert bundle_asked(page) == 1


def test_a_key_typed_into_a_field_or_with_control_loads_nothing(opened):
    page = opened("/nb/", PHONE)
    page.keyboard.press("Control+s")
    page.keyboard.press("x")
    page.wait_for_timeout(300)
    assert bundle_asked(page) == 0 and not page.evaluate("document.getElementById('__search').checked")


def test_opening_the_drawer_brings_the_theme_and_it_follows_the_reading(opened):
    page = opened("/nb/", PHONE)
    page.locator("label.md-header__button[for=__drawer]").click()
    page.wait_for_function(THEME_RUNNING)
    assert bundle_asked(page) == 1 and page.errors == [] and page.evaluate(CONTENT_MOUNTED)
    page.evaluate("() => document.getElementById('__drawer').click()")  # closed again
    title = page.locator("[data-md-component=header-title]")
    assert "md-header__title--active" not in title.get_attribute("class")
    page.mouse.wheel(0, 1500)  # past the page's heading: the header shows the page's title
    page.wait_for_function("() => document.querySelector('[data-md-component=header-title]').classList.contains('md-header__title--active')")


def test_an_address_with_a_place_and_a_jump_to_one_bring_the_theme(opened):
    page = opened("/nb/#sporsmal-og-svar", PHONE)
    assert bundle_asked(page) == 1 and page.evaluate(THEME_RUNNING)
    page = opened("/nb/", PHONE)
    page.evaluate("location.hash = 'sporsmal-og-svar'")
    page.wait_for_function(THEME_RUNNING)
    assert bundle_asked(page) == 1 and page.errors == []


def test_widening_the_window_brings_the_theme(opened):
    page = opened("/nb/", PHONE)
    page.set_viewport_size(WIDE)
    page.wait_for_function(THEME_RUNNING)
    assert bundle_asked(page) == 1 and page.errors == []
