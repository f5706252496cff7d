"""The API's request and response models (pydantic v2), generated from the spec and re-exported here.

``from meridian.models import ProjectCreate, ProjectStatus, RiskCreate`` is the same as importing them from
``meridian_client.models``; a schema added to the spec appears here after regeneration with no edit. Models take
snake_case field names (``project_id=``) and serialise to the API's camelCase (``projectId``); ``Model.from_dict`` /
``model.to_dict()`` convert from and to the wire shape.
"""

# `meridian_client/__init__.py` is the generated module that lists every model in `__all__` (so type checkers in
# strict mode see them as exported); it lists the generated API classes and ApiClient too, which come along.
from meridian_client import *  # noqa: F401,F403
