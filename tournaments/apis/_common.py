"""The database's limits on the numbers the API takes (what it looks up comes through :mod:`core.doorway`)."""

from __future__ import annotations

from core.api import MAX_INT, MAX_SMALLINT

#: Table numbers are stored as ``integer``: a fixed table beyond this would fail in the database.
MAX_TABLE = MAX_INT
#: Round numbers are stored as ``smallint``.
MAX_ROUND = MAX_SMALLINT
