"""The printouts on A4 or US Letter: ``?paper=a4|letter``, the event's paper by default, a 400 for another value,
and the dashboard's links to both."""

from __future__ import annotations

import re

import pytest

from tests.support.people import as_user
from tournaments import services

pytestmark = pytest.mark.django_db

PRINTOUTS = ("print/pairings/", "print/pairings/?by=table", "print/standings/", "print/bracket/", "print/slips/")


def stylesheet(page: str) -> str:
    return re.search(r'href="/static/css/(print-[a-z0-9]+\.css)"', page).group(1)


def test_each_printout_is_laid_out_for_the_paper_asked_or_else_the_events(duel, organiser, client):
    client = as_user(client, organiser)
    base = f"/live/events/{duel.pk}/"
    for path in PRINTOUTS:
        joiner = "&" if "?" in path else "?"
        assert stylesheet(client.get(base + path).content.decode()) == "print-a4.css", path
        letter = client.get(base + path + joiner + "paper=letter").content.decode()
        assert stylesheet(letter) == "print-letter.css" and '<strong aria-current="page">US Letter</strong>' in letter
    services.event_update(event=duel, by=organiser, paper="letter")
    assert stylesheet(client.get(base + "print/standings/").content.decode()) == "print-letter.css"
    assert stylesheet(client.get(base + "print/standings/?paper=a4").content.decode()) == "print-a4.css"


@pytest.mark.parametrize("paper", ["a3", "A4", "", "legal"])
def test_a_paper_it_does_not_know_is_a_400_that_names_the_two(duel, organiser, client, paper):
    answer = as_user(client, organiser).get(f"/live/events/{duel.pk}/print/slips/?round=1&paper={paper}")
    assert answer.status_code == 400
    assert "print on ?paper=a4 or ?paper=letter" in answer.content.decode()


def test_the_other_papers_link_keeps_the_printouts_other_choices(duel, organiser, client):
    page = as_user(client, organiser).get(f"/live/events/{duel.pk}/print/pairings/?round=1&by=table").content.decode()
    assert 'href="?round=1&amp;by=table&amp;paper=letter">US Letter</a>' in page


def test_the_dashboard_links_to_every_printout_on_both_papers_the_events_first(duel, organiser, client):
    services.event_update(event=duel, by=organiser, paper="letter")
    card = as_user(client, organiser).get(f"/live/events/{duel.pk}/timer/", headers={"HX-Request": "true"})
    html = card.content.decode()
    assert html.index("Print on US Letter:") < html.index("Print on A4:")
    for paper in ("a4", "letter"):
        assert f"print/slips/?round=1&amp;paper={paper}" in html and f"print/standings/?paper={paper}" in html
