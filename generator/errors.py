"""One family of errors for the whole build, like mkdocs' own: each message names the file
(and line) and says what to do. The command line prints it once and exits with the class's
code: 2 when an input was refused (a page source, a string, the bundle, a destination, a
port), 1 when the build itself failed after its inputs were accepted (MkDocs, the site check)."""


class BuildError(Exception):
    """An input the build refuses."""
    exit_code = 2


class BuildFailed(BuildError):
    """The build went wrong after its inputs were read; nothing was published."""
    exit_code = 1
