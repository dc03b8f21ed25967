"""CSV files people open in a spreadsheet: every export writes through :func:`csv_response`.

Terms: a *cell* is one value of a row; a *text cell* is a ``str``, a *number* an ``int``, ``float`` or
``Decimal`` (``bool`` and ``None`` are written as text: ``True``, empty).

* **Formulas are neutralised** (OWASP, "CSV Injection"): a spreadsheet runs a cell that starts with ``=``,
  ``+``, ``-`` or ``@`` as a formula (a tab or a carriage return in front of one does not stop it), and
  anyone picks a display name, an archetype or a decklist line.  A text cell that starts with one of those
  six characters is written with a single quote in front, which spreadsheets read as "this is text".  Numbers
  are written as they are (``-3`` stays the number -3), and so is a text cell that is a plain decimal number
  (``"-3"``, ``"0.5000"``): a spreadsheet reads it as that number and nothing else.
* **UTF-8 with a byte-order mark**, so that a spreadsheet opening the file reads ``Zoë`` and ``遊戯``
  rather than guessing a legacy encoding; Python's ``csv`` module and ``utf-8-sig`` read it back unchanged.
* The answer is an attachment (``Content-Disposition``) of type ``text/csv; charset=utf-8``.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

from django.http import HttpResponse
from django.utils.http import content_disposition_header

#: A spreadsheet runs a cell starting with one of these as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: Text that a spreadsheet reads as a plain number and nothing else.
PLAIN_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")
BOM = "\ufeff"


def safe_cell(value: Any) -> Any:
    """The cell as it goes into the file: a text cell that a spreadsheet would run gets a ``'`` in front."""
    if isinstance(value, (int, float, Decimal)) and not isinstance(value, bool):
        return value
    text = "" if value is None else str(value)
    if text.startswith(FORMULA_STARTS) and not PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


def csv_response(filename: str, header: Sequence[Any], rows: Iterable[Sequence[Any]]) -> HttpResponse:
    """A CSV attachment named ``filename``: the header row, then the rows, every cell through :func:`safe_cell`."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(as_attachment=True, filename=filename)
    response.write(BOM)
    writer = csv.writer(response)
    writer.writerow([safe_cell(cell) for cell in header])
    writer.writerows([safe_cell(cell) for cell in row] for row in rows)
    return response
