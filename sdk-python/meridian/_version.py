"""The SDK's version (PEP 440). Beta: minor versions may still change the hand-written API."""

__version__ = "0.1.0b1"
