"""One family of errors for the whole build, like mkdocs' own: each message names the file
(and line) and says what to do. The command line prints it and exits non-zero."""


class BuildError(Exception):
    pass
