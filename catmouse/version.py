"""The package's version, in one place (pyproject.toml reads it from here without importing)."""

__version__ = "0.3.0.dev0"
