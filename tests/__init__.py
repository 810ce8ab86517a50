"""Test package (lets other test modules ``from tests.strategies import ...``)."""
