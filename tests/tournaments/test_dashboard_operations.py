"""Event operations from the organiser's dashboard, and the "why?" on the public pairings page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.support.events import make_event, report_all
from tournaments import services
from tournaments.models import ByeAssignment, Pod, Registration, Round, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def browser(client, organiser):
    client.force_login(organiser)
    return client


def test_the_organiser_is_asked_before_a_rematch_and_can_accept_it(browser, organiser) -> None:
    event = make_event(organiser, 2, rounds=3)
    browser.post(reverse("dashboard:round-start", args=[event.pk]))
    report_all(event, organiser)
    page = browser.post(reverse("dashboard:round-start", args=[event.pk]), follow=True).content.decode()
    assert "No pairing of round 2 avoids every rematch" in page and "Pair with the fewest rematches" in page
    assert event.rounds.count() == 1
    browser.post(reverse("dashboard:round-start", args=[event.pk]), {"allow_rematches": "true"})
    assert event.rounds.count() == 2


def test_swap_re_pair_bye_and_fixed_table_from_the_dashboard(browser, organiser) -> None:
    event = make_event(organiser, 6)
    reg = Registration.objects.filter(event=event).first()
    browser.post(reverse("dashboard:registration-fixed-table", args=[event.pk, reg.pk]), {"fixed_table": "3"})
    browser.post(reverse("dashboard:registration-bye", args=[event.pk, reg.pk]), {"round": "2"})
    reg.refresh_from_db()
    assert reg.fixed_table == 3 and ByeAssignment.objects.filter(registration=reg, round_number=2).exists()

    browser.post(reverse("dashboard:round-start", args=[event.pk]))
    assert Seat.objects.get(round__number=1, player=reg.player).pod.table_number == 3
    page = browser.get(reverse("dashboard:event-detail", args=[event.pk])).content.decode()
    assert "Re-pair round 1" in page and "table 3" in page and "bye in round 2" in page

    a, b = Seat.objects.filter(round__number=1, pod__table_number__in=[1, 2]).order_by("pod__table_number")[::2]
    response = browser.post(
        reverse("dashboard:round-swap", args=[event.pk, 1]), {"player_a": a.player_id, "player_b": b.player_id}
    )
    assert response.status_code == 302
    assert Round.objects.get(event=event, number=1).edited

    old = Round.objects.get(event=event, number=1).pk
    browser.post(reverse("dashboard:round-repair", args=[event.pk, 1]))
    assert Round.objects.get(event=event, number=1).pk != old

    report_all(event, organiser)
    browser.post(reverse("dashboard:round-start", args=[event.pk]))
    assert Seat.objects.get(round__number=2, player=reg.player).pod.is_bye


def test_bad_dashboard_input_is_a_message_not_a_500(browser, organiser) -> None:
    event = make_event(organiser, 4)
    reg = Registration.objects.filter(event=event).first()
    for url, data in [
        (reverse("dashboard:registration-fixed-table", args=[event.pk, reg.pk]), {"fixed_table": "x"}),
        (reverse("dashboard:registration-bye", args=[event.pk, reg.pk]), {"round": ""}),
        (reverse("dashboard:round-swap", args=[event.pk, 1]), {"player_a": "1"}),
        (reverse("dashboard:round-repair", args=[event.pk, 1]), {}),
        (reverse("dashboard:top-cut-start", args=[event.pk]), {"size": "8"}),
    ]:
        response = browser.post(url, data, follow=True)
        assert response.status_code == 200
        assert "msg-error" in response.content.decode()


def test_the_top_cut_starts_from_the_dashboard(browser, organiser) -> None:
    event = make_event(organiser, 8, rounds=3)
    for _ in range(3):
        services.round_start(event=event, by=organiser)
        report_all(event, organiser)
    page = browser.get(reverse("dashboard:event-detail", args=[event.pk])).content.decode()
    assert "Start top cut" in page
    browser.post(reverse("dashboard:top-cut-start", args=[event.pk]), {"size": "4"})
    page = browser.get(reverse("dashboard:event-detail", args=[event.pk])).content.decode()
    assert "Semi-finals pairings" in page and "top 4 cut" in page


def test_the_public_pairings_say_why_each_player_sits_where_they_do(client, organiser) -> None:
    event = make_event(organiser, 5)
    services.round_start(event=event, by=organiser, seed=7)
    report_all(event, organiser)
    services.round_start(event=event, by=organiser, seed=8)
    bye = Seat.objects.get(round__number=2, pod__is_bye=True)
    page = client.get(
        reverse("public:pairings-by-name", args=[event.pk]) + f"?round=2&player={bye.player_id}"
    ).content.decode()
    assert "lowest-ranked player among those with the fewest byes" in page
    assert "reproduced from its stored seed, 8" in page
    assert 'class="highlight"' in page


def test_after_a_swap_from_the_dashboard_the_player_who_stayed_reads_who_was_swapped_in(
    browser, client, organiser
) -> None:
    event = make_event(organiser, 4)
    services.round_start(event=event, by=organiser, seed=5)
    report_all(event, organiser)
    services.round_start(event=event, by=organiser, seed=6)
    first, second = (list(p.seats.order_by("seat_order")) for p in Pod.objects.filter(round__number=2))
    stayer, leaving, arriving = first[0], first[1], second[0]
    browser.post(
        reverse("dashboard:round-swap", args=[event.pk, 2]),
        {"player_a": leaving.player_id, "player_b": arriving.player_id},
    )
    url = reverse("public:pairings-by-name", args=[event.pk]) + f"?round=2&player={stayer.player_id}"
    page = client.get(url).content.decode()
    row = page[page.index(f'id="player-{stayer.player_id}"') :]
    row = row[: row.index("</tr>")]
    said = f"Staff changed your table by hand after round 2 was paired: {arriving.player.display_name} was swapped in."
    assert said in row
    assert "point group" not in row and "reproduced from its stored seed" not in row


def test_the_settings_page_changes_planned_rounds_and_refuses_bad_input(browser, organiser) -> None:
    event = make_event(organiser, 4, format="master-trainer")
    url = reverse("dashboard:event-settings", args=[event.pk])
    assert "Leftover players" in browser.get(url).content.decode()
    data = {"name": event.name, "planned_rounds": 6, "date": "2026-12-01", "venue": "", "tiebreakers": "pokemon"}
    assert browser.post(url, data | {"pod_leftovers": "byes"}).status_code == 302
    event.refresh_from_db()
    assert (event.planned_rounds, event.tiebreakers, event.pod_leftovers) == (6, "pokemon", "byes")
    response = browser.post(url, data | {"planned_rounds": 0})
    assert response.status_code == 400
    services.round_start(event=event, by=organiser)
    page = browser.get(url).content.decode()
    assert "Fixed once round 1 is paired." in page
