"""Running an event from the dashboard: result entry at a table, the top cut, standings and finishing.

htmx requests carry ``HX-Request: true``; the answers are the fragments htmx swaps.
A form with errors is answered with 422, which ``base.html`` configures htmx to
swap into the table (it leaves other 4xx and 5xx answers unswapped).
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from leagues import services as league_services
from leagues.models import SeasonStanding
from tests.support.events import make_event, play_swiss, report_all
from tests.support.leagues import committed, make_league, played_event, players
from tournaments import selectors, services
from tournaments.models import Event, PodResult, Round, Seat

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def browser(client, organiser):
    client.force_login(organiser)
    return client


def _pod_event(organiser, players=8) -> Event:
    event = make_event(organiser, players, format="master-trainer")
    services.round_start(event=event, by=organiser, seed=1)
    return event


def _seats(event: Event, table: int, number: int = 1) -> list[Seat]:
    return list(
        Seat.objects.filter(round__event=event, round__number=number, pod__table_number=table).order_by("seat_order")
    )


def _result_url(event: Event, table: int, number: int = 1) -> str:
    return reverse("dashboard:result-report", args=[event.pk, number, table])


# --- an error at a table stays at the table --------------------------------------------------------


def test_base_tells_htmx_to_swap_a_422_answer_into_its_target(client):
    page = client.get(reverse("public:home")).content.decode()
    assert 'name="htmx-config"' in page
    assert '{"code": "422", "swap": true, "error": false}' in page


def test_a_refused_result_comes_back_to_the_table_as_a_422_with_the_choices_kept(browser, organiser):
    event = _pod_event(organiser)
    seats = _seats(event, 1)
    bad = {f"placement_{s.player_id}": str(p) for s, p in zip(seats, [1, 3, 3, 4], strict=True)}
    response = browser.post(_result_url(event, 1), bad, **HTMX)
    html = response.content.decode()
    assert response.status_code == 422
    assert "Placements must rank players 1, 2, ..." in html and 'role="alert"' in html
    # Still an htmx form aimed at its own card, so the next submit is swapped there too.
    card = f'id="table-{seats[0].pod_id}"'
    assert card in html and f'hx-target="#table-{seats[0].pod_id}"' in html
    assert '<option value="3" selected>#3</option>' in html  # what the organiser chose is still chosen
    assert not PodResult.objects.exists()

    good = {f"placement_{s.player_id}": str(p) for s, p in zip(seats, [1, 2, 3, 4], strict=True)}
    response = browser.post(_result_url(event, 1), good, **HTMX)
    assert response.status_code == 200 and "reported" in response.content.decode()


def test_an_incomplete_result_form_is_a_422_at_the_table(browser, organiser):
    event = _pod_event(organiser)
    response = browser.post(_result_url(event, 1), {}, **HTMX)
    assert response.status_code == 422
    assert "Choose a placement for every player." in response.content.decode()


def test_each_tables_placement_fields_have_their_own_labelled_ids(browser, organiser):
    event = _pod_event(organiser)
    page = browser.get(reverse("dashboard:event-detail", args=[event.pk])).content.decode()
    for table in (1, 2):
        seat = _seats(event, table)[0]
        field_id = f"table{seat.pod_id}_placement_{seat.player_id}"
        assert f'for="{field_id}"' in page and f'id="{field_id}"' in page


# --- the standings refresh after a result ----------------------------------------------------------


@pytest.mark.django_db(transaction=True)  # the standings are computed on commit, as in a real request
def test_a_result_answer_also_refreshes_the_round_count_and_the_standings(browser, organiser):
    event = _pod_event(organiser)
    seats = _seats(event, 1)
    data = {f"placement_{s.player_id}": str(p) for s, p in zip(seats, [1, 2, 3, 4], strict=True)}
    response = browser.post(_result_url(event, 1), data, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert '<section class="card" id="standings"' in html and 'hx-swap-oob="true"' in html
    winner = seats[0].player.display_name
    standings = html[html.index('id="standings"') :]
    assert winner in standings and "updating" not in standings
    assert '<span id="round-status" hx-swap-oob="true"><span class="muted">1 table to report' in html
    assert "Recorded the result of table 1." in html  # for the page's live region


def test_standings_that_are_still_being_computed_ask_again(browser, organiser):
    event = _pod_event(organiser)
    seats = _seats(event, 1)
    data = {f"placement_{s.player_id}": str(p) for s, p in zip(seats, [1, 2, 3, 4], strict=True)}
    # Without running the on-commit work, the standings are behind the results, as while a worker computes them.
    html = browser.post(_result_url(event, 1), data, **HTMX).content.decode()
    standings_url = reverse("dashboard:event-standings", args=[event.pk])
    assert "updating…" in html and f'hx-get="{standings_url}"' in html
    services.standings_recompute(event_id=event.pk)
    fragment = browser.get(standings_url, **HTMX).content.decode()
    assert seats[0].player.display_name in fragment and "hx-get" not in fragment


# --- the top cut -------------------------------------------------------------------------------------


@pytest.fixture
def cut_event(organiser) -> Event:
    event = make_event(organiser, 8, rounds=3)
    play_swiss(event, organiser)
    services.top_cut_start(event=event, by=organiser, size=4)
    return event


def test_a_top_cut_table_offers_a_winner_and_no_draw(browser, cut_event):
    page = browser.get(reverse("dashboard:event-detail", args=[cut_event.pk])).content.decode()
    assert 'value="draw"' not in page
    a, b = _seats(cut_event, 1, number=4)
    assert f'name="winner" value="{a.player_id}"' in page and f'name="winner" value="{b.player_id}"' in page

    response = browser.post(_result_url(cut_event, 1, number=4), {"winner": str(b.player_id)}, **HTMX)
    assert response.status_code == 200
    assert [s.placement for s in _seats(cut_event, 1, number=4)] == [2, 1]


def test_a_draw_or_a_shared_first_place_at_a_top_cut_table_is_refused_at_the_table(browser, cut_event):
    a, b = _seats(cut_event, 1, number=4)
    for data in ({"outcome": "draw"}, {f"placement_{a.player_id}": "1", f"placement_{b.player_id}": "1"}):
        response = browser.post(_result_url(cut_event, 1, number=4), data, **HTMX)
        assert response.status_code == 422
        assert "A top-cut table needs one winner" in response.content.decode()
    assert not PodResult.objects.filter(pod__round__number=4).exists()


@pytest.fixture
def final_pod(organiser) -> Event:
    """An Mt. Silver event of 8 in a league season, Swiss played, its top 4 cut: one final pod, round 3."""
    league, season = make_league(organiser, formats=("mt-silver",))
    event = played_event(organiser, season=season, format="mt-silver", field=players(8), rounds=2)
    services.top_cut_start(event=event, by=organiser, size=4)
    event.refresh_from_db()
    return event


def _places(seats: list[Seat], places: list[int]) -> dict[str, str]:
    return {f"placement_{s.player_id}": str(p) for s, p in zip(seats, places, strict=True)}


def test_a_pod_top_cut_table_asks_for_every_players_place_one_pick_per_seat(browser, final_pod):
    page = browser.get(reverse("dashboard:event-detail", args=[final_pod.pk])).content.decode()
    seats = _seats(final_pod, 1, number=3)
    assert 'name="winner"' not in page and " wins</button>" not in page  # no winner-only shortcut
    for seat in seats:
        for place in range(1, 5):
            assert f'type="radio" name="placement_{seat.player_id}" value="{place}"' in page
    assert '<legend><span class="seat-no">1</span>' in page and "> 1st</label>" in page and "> 4th</label>" in page

    response = browser.post(_result_url(final_pod, 1, number=3), _places(seats, [3, 1, 4, 2]), **HTMX)
    assert response.status_code == 200
    assert [s.placement for s in _seats(final_pod, 1, number=3)] == [3, 1, 4, 2]


def test_players_level_at_a_pod_top_cut_table_share_a_place_below_the_winner(browser, final_pod):
    seats = _seats(final_pod, 1, number=3)
    response = browser.post(_result_url(final_pod, 1, number=3), _places(seats, [1, 2, 2, 4]), **HTMX)
    assert response.status_code == 200
    assert [s.placement for s in _seats(final_pod, 1, number=3)] == [1, 2, 2, 4]


@pytest.mark.parametrize(
    ("places", "error"),
    [
        ([1, 1, 3, 4], "A top-cut table needs one winner"),
        ([1, 3, 3, 4], "Placements must rank players 1, 2, ..."),
    ],
)
def test_a_pod_top_cut_result_without_one_winner_or_with_a_gap_is_refused_at_the_table(
    browser, final_pod, places, error
):
    seats = _seats(final_pod, 1, number=3)
    response = browser.post(_result_url(final_pod, 1, number=3), _places(seats, places), **HTMX)
    assert response.status_code == 422 and error in response.content.decode()
    assert not PodResult.objects.filter(pod__round__number=3).exists()


def test_a_winner_alone_at_a_pod_top_cut_table_is_not_a_result_the_other_places_are_asked_for(browser, final_pod):
    seats = _seats(final_pod, 1, number=3)
    response = browser.post(_result_url(final_pod, 1, number=3), {"winner": str(seats[2].player_id)}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 422 and "Choose a placement for every player." in html
    # The winner's 1st stays picked; the others' places are to pick.
    assert re.findall(r'name="placement_(\d+)" value="(\d)" id="[^"]+" required checked', html) == [
        (str(seats[2].player_id), "1")
    ]
    assert not PodResult.objects.filter(pod__round__number=3).exists()


def test_a_final_pod_recorded_from_the_dashboard_places_champion_2nd_3rd_and_4th_everywhere(
    browser, organiser, final_pod
):
    seats = _seats(final_pod, 1, number=3)
    with committed():
        browser.post(_result_url(final_pod, 1, number=3), _places(seats, [3, 1, 4, 2]))
    by_place = [seats[1], seats[3], seats[0], seats[2]]

    # The public event page and the bracket: Champion, 2nd, 3rd, 4th, not "2nd" three times.
    bracket = selectors.top_cut_bracket(event=final_pod)
    assert [(p.label, p.player_id) for p in bracket.placements] == [
        (label, s.player_id) for label, s in zip(["Champion", "2nd", "3rd", "4th"], by_place, strict=True)
    ]
    page = browser.get(reverse("public:event", args=[final_pod.pk])).content.decode()
    listed = re.findall(r"<strong>([^<]+)</strong>: ([^<]+?)[ <]", page[page.index("Final placements") :])
    assert listed == [
        (label, s.player.display_name) for label, s in zip(["Champion", "2nd", "3rd", "4th"], by_place, strict=True)
    ]

    # The exported standings and the league season place them 1st to 4th, so placing points follow.
    exported = browser.get(reverse("leagues:export-json", args=[final_pod.pk])).json()
    assert [row["placing"] for row in exported[:4]] == [1, 2, 3, 4]
    assert [int(row["player"]) for row in exported[:4]] == [s.player_id for s in by_place]
    season = final_pod.season_link.season
    league_services.season_standings_recompute(season_id=season.pk)
    placing = {line.player_id: line.events[0]["placing"] for line in SeasonStanding.objects.filter(season=season)}
    assert [placing[s.player_id] for s in by_place] == [1, 2, 3, 4]


def test_a_final_pod_recorded_with_a_winner_only_is_corrected_to_every_players_place(browser, organiser, final_pod):
    seats = _seats(final_pod, 1, number=3)
    # What the dashboard recorded before it asked for every place: the winner 1st, everyone else 2nd.
    services.pod_result_report(
        event=final_pod, round_number=3, table_number=1, by=organiser,
        placements={s.player_id: 1 if s is seats[0] else 2 for s in seats},
    )  # fmt: skip
    correct_url = reverse("dashboard:result-correct", args=[final_pod.pk, 3, 1])
    page = browser.get(correct_url).content.decode()
    picked = re.findall(r'name="placement_(\d+)" value="(\d)" id="[^"]+" required checked', page)
    assert picked == [(str(s.player_id), "1" if s is seats[0] else "2") for s in seats]  # as recorded

    response = browser.post(correct_url, {**_places(seats, [1, 3, 2, 4]), "reason": "Places by Life were left out"})
    assert response.status_code == 302
    assert [s.placement for s in _seats(final_pod, 1, number=3)] == [1, 3, 2, 4]
    assert [p.label for p in selectors.top_cut_bracket(event=final_pod).placements] == ["Champion", "2nd", "3rd", "4th"]


def test_after_the_final_is_paired_the_dashboard_offers_to_finish_not_another_round(browser, organiser, cut_event):
    report_all(cut_event, organiser)
    page = browser.get(reverse("dashboard:event-detail", args=[cut_event.pk])).content.decode()
    assert "Start the final" in page  # the semi-finals are played: the final comes next
    services.round_start(event=cut_event, by=organiser)
    assert cut_event.rounds.order_by("-number").first().stage == Round.Stage.TOP_CUT
    page = browser.get(reverse("dashboard:event-detail", args=[cut_event.pk])).content.decode()
    assert "Start the final" not in page
    assert (
        f'class="button primary" href="{reverse("dashboard:event-finish", args=[cut_event.pk])}">Finish event' in page
    )


# --- finishing asks first ----------------------------------------------------------------------------


def test_finishing_an_event_asks_for_confirmation_first(browser, organiser):
    event = _pod_event(organiser)
    url = reverse("dashboard:event-finish", args=[event.pk])
    page = browser.get(reverse("dashboard:event-detail", args=[event.pk])).content.decode()
    assert f'href="{url}">Finish event</a>' in page  # a link to the question, not a form that finishes

    html = browser.get(url).content.decode()
    assert "2 tables of Round 1 have no result yet." in html
    assert "disabled" in html[html.index("Finish the event") - 80 : html.index("Finish the event")]

    report_all(event, organiser)
    question = browser.get(url)
    html = question.content.decode()
    assert question.status_code == 200 and "This can't be undone" in html and "no result yet" not in html
    assert browser.post(url).status_code == 200  # a bare POST only asks again
    event.refresh_from_db()
    assert event.status != Event.Status.FINISHED

    response = browser.post(url, {"confirm": "yes"})
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert browser.get(url).status_code == 302  # nothing left to confirm


def test_only_the_organiser_sees_the_finish_question(client, outsider, organiser):
    event = _pod_event(organiser)
    client.force_login(outsider)
    assert client.get(reverse("dashboard:event-finish", args=[event.pk])).status_code == 403


# --- registering players one after another -----------------------------------------------------------


def test_registering_with_htmx_answers_the_rows_and_leaves_the_form_with_its_focus_alone(browser, organiser):
    event = make_event(organiser, 2)
    url = reverse("dashboard:registration-add", args=[event.pk])
    response = browser.post(url, {"display_name": "Ash", "external_id": "", "checked_in": "on"}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<table class="grid compact" id="players-rows"')
    assert "Ash" in html
    assert 'id="players-count" hx-swap-oob="true">3 active of 3' in html
    # The form is not in the answer: the name field on the page keeps the focus (and is emptied by the page).
    assert 'name="display_name"' not in html
    assert 'id="dashboard-announcer" hx-swap-oob="innerHTML">Registered Ash.' in html


def test_a_refused_registration_with_htmx_says_why_and_leaves_what_was_typed_alone(browser, organiser):
    event = make_event(organiser, 1)
    url = reverse("dashboard:registration-add", args=[event.pk])
    browser.post(url, {"display_name": "Ash", "external_id": "P-1"}, **HTMX)
    response = browser.post(url, {"display_name": "Ash", "external_id": "P-1"}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 422
    assert '<div id="registration-error" hx-swap-oob="true"><p class="error" role="alert">' in html
    assert "already registered" in html
    assert 'name="display_name"' not in html  # what was typed stays in the field on the page


def test_registering_without_javascript_comes_back_to_the_players_with_the_name_field_focused(browser, organiser):
    event = make_event(organiser, 1)
    response = browser.post(reverse("dashboard:registration-add", args=[event.pk]), {"display_name": "Ash"})
    assert response["Location"] == reverse("dashboard:event-detail", args=[event.pk]) + "#players"
    page = browser.get(response["Location"]).content.decode()
    assert "autofocus" in page[page.index('name="display_name"') - 200 : page.index('name="display_name"') + 200]
    assert "autofocus" not in browser.get(response["Location"]).content.decode()  # only right after registering
