"""The API's request and response models (pydantic v2), generated from the spec by openapi-generator.

``from meridian.models import ProjectCreate, ProjectStatus, RiskCreate``; a schema added to the spec appears here after
``npm run generate`` with no edit. Models take snake_case field names (``project_id=``) and serialise to the API's
camelCase (``projectId``); ``Model.from_dict`` / ``model.to_dict()`` convert from and to the wire shape. Enums are
``str`` enums (``ProjectStatus.AT_RISK == "AT_RISK"``).

Type checking: the models' ``__init__`` takes the snake_case names only with pydantic's mypy plugin
(``plugins = ["pydantic.mypy"]`` in your mypy configuration); without it mypy sees only the camelCase aliases.
"""

from ._generated import *  # noqa: F401,F403
from ._generated import __all__ as __all__  # noqa: F401
