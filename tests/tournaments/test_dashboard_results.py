"""Running an event from the dashboard: result entry at a table, the top cut, standings and finishing.

htmx requests carry ``HX-Request: true``; the answers are the fragments htmx swaps.
A form with errors is answered with 422, which ``base.html`` configures htmx to
swap into the table (it leaves other 4xx and 5xx answers unswapped).
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.support.events import make_event, play_swiss, report_all
from tournaments import services
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
    assert '<span id="round-status" hx-swap-oob="true"><span class="muted">1 table(s) to report' in html
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


def test_a_pod_top_cut_table_offers_one_winner_button_per_player(browser, organiser):
    event = make_event(organiser, 20, format="mt-silver", rounds=3)
    play_swiss(event, organiser)
    services.top_cut_start(event=event, by=organiser, size=16)
    page = browser.get(reverse("dashboard:event-detail", args=[event.pk])).content.decode()
    seats = _seats(event, 1, number=4)
    assert all(f'name="winner" value="{s.player_id}"' in page for s in seats)
    assert 'name="placement_' not in page  # no placement selects: a shared first can't be entered
    browser.post(_result_url(event, 1, number=4), {"winner": str(seats[2].player_id)})
    assert [s.placement for s in _seats(event, 1, number=4)] == [2, 2, 1, 2]


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
