"""The package's version, in one place (pyproject.toml reads it from here without importing)."""

__version__ = "0.2.0"
