"""Cut byes through the services: the top seeds of a top 6 (1v1) or a top 10 (pods of 4) skip the first cut round."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.support.events import make_event, play_swiss, report_all
from tournaments import selectors, services
from tournaments.models import PodResult, Round, Standing

pytestmark = pytest.mark.django_db


def _tables(round_: Round) -> list[list[int]]:
    return [
        [s.player_id for s in pod.seats.order_by("seat_order")]
        for pod in round_.pods.filter(is_bye=False).order_by("table_number")
    ]


def test_a_top_six_gives_the_two_best_seeds_a_bye_into_the_semi_finals(organiser, api) -> None:
    event = make_event(organiser, 12, rounds=3)
    play_swiss(event, organiser)
    seeds = list(Standing.objects.filter(event=event).order_by("rank", "player_id").values_list("player_id", flat=True))
    cut = services.top_cut_start(event=event, by=organiser, size=6)
    s = seeds
    assert _tables(cut) == [[s[0]], [s[3], s[4]], [s[1]], [s[2], s[5]]]
    assert selectors.round_label(round_=cut) == "Quarter-finals"
    assert PodResult.objects.filter(pod__round=cut, source=PodResult.Source.BYE).count() == 2
    assert api.get(f"/api/v1/events/{event.pk}/bracket/").status_code == 200
    staff = Client()
    staff.force_login(organiser)
    assert staff.get(f"/dashboard/events/{event.pk}/").status_code == 200
    page = Client().get(f"/events/{event.pk}/")
    assert page.status_code == 200 and "Quarter-finals" in page.text

    # Until a table is played the cut can be taken back (the byes' results were nobody's): it starts again.
    services.round_start_undo(event=event, round_number=cut.number, by=organiser)
    event.refresh_from_db()
    assert event.top_cut_size == 0
    cut = services.top_cut_start(event=event, by=organiser, size=6)

    report_all(event, organiser)  # the better seed wins: 4 and 3 go through
    semis = services.round_start(event=event, by=organiser)
    assert _tables(semis) == [[s[0], s[3]], [s[1], s[2]]]
    report_all(event, organiser)
    final = services.round_start(event=event, by=organiser)
    assert _tables(final) == [[s[0], s[1]]]


def test_a_pod_top_ten_sends_the_two_best_seeds_to_the_final_pod(organiser) -> None:
    event = make_event(organiser, 16, format="master-trainer", rounds=2)
    play_swiss(event, organiser)
    seeds = list(Standing.objects.filter(event=event).order_by("rank", "player_id").values_list("player_id", flat=True))
    cut = services.top_cut_start(event=event, by=organiser, size=10)
    s = seeds
    assert _tables(cut) == [[s[0]], [s[1]], [s[2], s[5], s[6], s[9]], [s[3], s[4], s[7], s[8]]]
    report_all(event, organiser)
    final = services.round_start(event=event, by=organiser)
    assert sorted(_tables(final)[0]) == sorted([s[0], s[1], s[2], s[3]])
