"""Shared fixtures: one Node process with the app's code for the whole test session."""
import pytest

from verify.app import AppEngine


@pytest.fixture(scope="session")
def app():
    with AppEngine() as engine:
        yield engine
