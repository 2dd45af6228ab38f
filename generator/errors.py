"""One family of errors for the whole build, like mkdocs' own: each message names the file
(and line) and says what to do. The command line prints it once and exits with the class's
code: 2 when an input was refused (a page source, a string, the bundle, a destination, a
port), 1 when the build itself failed after its inputs were accepted (MkDocs, the site check).
Paths inside the repository are named from its root (docs/nb/…), as the checker names them."""
import os

from generator.settings import ROOT


class BuildError(Exception):
    """An input the build refuses."""
    exit_code = 2


class BuildFailed(BuildError):
    """The build went wrong after its inputs were read; nothing was published."""
    exit_code = 1


def excerpt(text: str, width: int = 60) -> str:
    """The start of a refused text as a message quotes it: at most `width` characters, each
    line break shown as ⏎, so that the message stays one line however the text is written."""
    return "⏎".join(text[:width].splitlines())


def in_repository(message: str) -> str:
    """Paths inside the repository as the checker writes them, from its root (docs/nb/…): the
    generator's lines sit beside the checker's in make verify and make site."""
    return message.replace(f"{ROOT}{os.sep}", "")
