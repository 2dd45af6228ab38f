"""`python -m verify.survey …`: the same as `python -m verify survey …`."""
import sys

from ..cli import main

sys.exit(main(["survey", *sys.argv[1:]]))
