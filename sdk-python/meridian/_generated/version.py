"""The SDK's version (PEP 440): the spec's ``info.version`` and pre-release; pyproject.toml reads it, and the ``User-Agent`` header carries it.

Generated from spec/openapi.yaml by sdk-python/scripts/generate_operations.py. Do not edit: change the spec and
run `npm run generate`.
"""

__version__ = "1.0.0b1"
