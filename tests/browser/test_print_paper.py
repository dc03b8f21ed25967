"""The printouts in Chromium's print-to-PDF, on A4 and US Letter: the pages are the paper's size, and no match slip
is split across two pages (each slip begun on a page ends on it)."""

from __future__ import annotations

import datetime
import io
import re

import pytest
from pypdf import PdfReader

from tests.factories import PlayerFactory, RegistrationFactory
from tournaments import services

pytestmark = pytest.mark.browser

#: The paper's size in PDF points (1/72 in).
SIZES = {"a4": (595, 842), "letter": (612, 792)}


@pytest.fixture
def pod_event(organiser):
    """Mt. Silver pods of four: tall slips (a line and a signature per player), nine tables of them."""
    event = services.event_create(
        organiser=organiser, name="Silver Saturday", format="mt-silver", planned_rounds=3,
        date=datetime.date(2026, 12, 5),
    )  # fmt: skip
    for i in range(36):
        RegistrationFactory(event=event, player=PlayerFactory(display_name=f"Player {i:02d}"))
    services.round_start(event=event, by=organiser, seed=5)
    return event


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_no_slip_is_split_across_pages_and_the_pages_are_the_papers_size(new_page, organiser, pod_event, paper):
    page = new_page(user=organiser)
    page.goto(f"/live/events/{pod_event.pk}/print/slips/?round=1&paper={paper}")
    tables = page.locator(".slip").count()
    pdf = PdfReader(io.BytesIO(page.pdf(prefer_css_page_size=True)))
    assert len(pdf.pages) > 1  # enough slips to need a page break
    seen = []
    for number, sheet in enumerate(pdf.pages, start=1):
        box = sheet.mediabox
        assert (round(float(box.width)), round(float(box.height))) == SIZES[paper]
        text = sheet.extract_text()
        begun = re.findall(r"Table (\d+)", text)
        ended = text.count("Judge:")
        assert len(begun) == ended, f"page {number}: slips {begun} but {ended} slip ends"
        seen += begun
    assert sorted(map(int, seen)) == list(range(1, tables + 1))
