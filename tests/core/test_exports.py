"""The CSV writer every export uses: text a spreadsheet would run gets a quote in front; numbers stay numbers."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest

from core.exports import csv_response, safe_cell


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("=1+1", "'=1+1"),
        ("+1+1", "'+1+1"),
        ("-1+cmd|' /C calc'!A0", "'-1+cmd|' /C calc'!A0"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1+1", "'\t=1+1"),
        ("\r=1+1", "'\r=1+1"),
        ("Ash", "Ash"),
        ("a=1", "a=1"),
        ("", ""),
        (None, ""),
        (True, "True"),
    ],
)
def test_a_text_cell_a_spreadsheet_would_run_is_quoted_and_other_text_is_left_alone(value, written):
    assert safe_cell(value) == written


@pytest.mark.parametrize("value", [-3, 0, 12, -0.5, Decimal("-1.25"), "-3", "+4", "0.5000", "-12.75"])
def test_a_number_stays_a_number(value):
    assert safe_cell(value) == value


def test_the_file_has_a_byte_order_mark_and_reads_back_with_its_numbers_and_quoted_text():
    response = csv_response("night-1-standings.csv", ["player", "points"], [["=Zoë", -3], ["遊戯", 7]])
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="night-1-standings.csv"'
    assert response.content.startswith("\ufeffplayer,points\r\n".encode())
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows == [["player", "points"], ["'=Zoë", "-3"], ["遊戯", "7"]]
