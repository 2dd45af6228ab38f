"""pytest for mutmut 2: exit 1 whenever the tests did not all pass. mutmut 2 counts a mutant as
survived unless its runner exits exactly 1, so a mutant that breaks the import (pytest: 2, a
collection error) or pytest itself (3) would be called a survivor; here each is the kill it is."""
import sys

import pytest

if __name__ == "__main__":
    sys.exit(0 if pytest.main(sys.argv[1:]) == 0 else 1)
