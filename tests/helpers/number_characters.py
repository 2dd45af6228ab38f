"""What the number guard promises to refuse, as the property tests draw it
(tests/generator/guard/test_number_guard_properties.py, test_contributed_strings_properties.py)."""
import unicodedata

from hypothesis import strategies as st


def is_number(char: str) -> bool:
    """The class the guard promises to report (generator/guard/numbers.py's docstring): Unicode
    category N, and Cn (a character this Python's Unicode does not know may be a newer digit)."""
    return unicodedata.category(char).startswith("N") or unicodedata.category(char) == "Cn"


NUMBERS = st.sampled_from("0123456789") | st.characters(categories=("Nd", "Nl", "No"))
