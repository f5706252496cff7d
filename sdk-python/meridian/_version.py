"""The SDK's version (PEP 440), the one place it is written: pyproject.toml reads it (``dynamic = ["version"]``) and
the ``User-Agent`` header carries it. Beta: minor versions may still change the hand-written API."""

__version__ = "0.2.0b1"
