"""Every Playwright input action of a test waits until the page has acted on it.

The game acts on a tap, click or key in a task of its own just after the input's (app/ui/dom.js
afterInput: Chromium draws a frame in the input's task, and the move's script there made one
task of both, too long on a slow phone), and focuses the end panel and starts the win's motion
in a task after the next frame (afterFrame). A test reads the page over DevTools, whose messages
run ahead of the page's tasks: without a wait, it would read the page as it was before the move.

`install()` wraps the input methods of Playwright's sync API named in INPUT_METHODS (those the
tests use, and their kin) once per process: after each, the
page runs a timer queued behind the game's, then waits a frame and a timer behind that frame's,
so the move and what follows its first frame are done. A page that navigated or closed meanwhile
has nothing to wait for.
"""
from __future__ import annotations

import functools

# Timers of one delay run in the order they were set, and a frame's callbacks in the order they
# were asked for: each step here comes after the game's own. A page that draws no frame (hidden)
# is waited for two seconds at most: its moves are done by then, only a focus would still wait.
SETTLE = """() => new Promise((done) => {
  setTimeout(() => requestAnimationFrame(() => setTimeout(done)));
  setTimeout(done, 2000);
})"""

INPUT_METHODS = {
    "Locator": ("click", "dblclick", "tap", "press", "press_sequentially", "check", "uncheck", "set_checked",
                "select_option", "dispatch_event", "drag_to", "set_input_files", "fill"),
    "ElementHandle": ("click", "dblclick", "tap", "press", "dispatch_event"),
    "Page": ("click", "dblclick", "tap", "press", "dispatch_event", "drag_and_drop"),
    "Keyboard": ("press", "down", "up", "type", "insert_text"),
    "Mouse": ("click", "dblclick", "down", "up"),
    "Touchscreen": ("tap",),
}


def _page_of(target):
    """The sync Page an input went to."""
    from playwright import sync_api

    if isinstance(target, sync_api.Page):
        return target
    if isinstance(target, sync_api.Locator):
        return target.page
    if isinstance(target, sync_api.ElementHandle):
        frame = target.owner_frame()
        return frame.page if frame else None
    return target._impl_obj._page._pw_api_instance_  # Keyboard, Mouse, Touchscreen: the page they belong to


def settle(page) -> None:
    """Waits until the page has run what the last input set going (see the module's text)."""
    from playwright.sync_api import Error

    if page is None or page.is_closed():
        return
    try:
        page.evaluate(SETTLE)
    except Error:
        pass  # the input navigated the page or closed it: there is nothing left to wait for


def _settling(method):
    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        result = method(self, *args, **kwargs)
        settle(_page_of(self))
        return result

    wrapper.settles = True
    return wrapper


def install() -> None:
    """Wraps INPUT_METHODS of the sync API's classes (once: a second call changes nothing)."""
    from playwright import sync_api

    for class_name, names in INPUT_METHODS.items():
        cls = getattr(sync_api, class_name)
        for name in names:
            method = getattr(cls, name)
            if not getattr(method, "settles", False):
                setattr(cls, name, _settling(method))
