"""pytest for mutmut 2: exit 1 whenever the tests did not all pass. mutmut 2 counts a mutant as
survived unless its runner exits exactly 1, so a mutant that breaks the import (pytest: 2, a
collection error) or pytest itself (3) would be called a survivor; here each is the kill it is.

Hypothesis does not shrink a failing example here: a mutant is killed by the first one, and
shrinking it (minutes, on a busy machine) only makes it small for a reader, who has none here.
Nor does it keep examples in .hypothesis/ (each mutant's are of another program)."""
import sys

import pytest
from hypothesis import Phase, settings

if __name__ == "__main__":
    settings.register_profile("mutation", phases=[Phase.explicit, Phase.reuse, Phase.generate], database=None)
    settings.load_profile("mutation")
    sys.exit(0 if pytest.main(sys.argv[1:]) == 0 else 1)
