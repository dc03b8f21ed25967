"""``manage.py demo``, run twice as a new user might: every format's event, the big event, the league, the people,
the penalty and the Mintayn sample pool are there, and a second run changes nothing.

The demo takes a while to build, so it is built once (twice, for the second run) and each part of what it makes is
checked by its own function below; each says what it checks.  What a page shows of the demo is checked further in
the browser tests (``tests/browser/test_big_event.py`` runs the big event's builder on its own).
"""

from __future__ import annotations

from pathlib import Path

from django.core.management import call_command
from django.urls import reverse

from decks.models import CatalogueVersion, DeckVersion
from floor.models import DeckCheck, JudgeCall
from games.models import Game
from leagues.models import PlayerRating, Season
from tests.support.pages import url
from tournaments.models import AuditEntry, Event, EventStaff, Penalty, Registration, ResultReport, Seat

SAMPLES = Path(__file__).resolve().parents[1] / "docs" / "samples"


def test_the_demo_builds_every_part_and_stays_the_same_when_run_again(
    catalogue_as_the_demo_finds_it, client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo")
    counts = _counts()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo")  # idempotent
    assert _counts() == counts

    _an_event_of_each_format()
    _the_big_event(client)
    _the_league(client)
    _the_people(client)
    _the_penalty(client)
    _the_mintayn_pool(client)


def _counts() -> tuple[int, ...]:
    return (
        Event.objects.count(),
        Registration.objects.count(),
        AuditEntry.objects.count(),
        EventStaff.objects.count(),
        Penalty.objects.count(),
        DeckVersion.objects.count(),
    )


def _an_event_of_each_format() -> None:
    """Five played events, one per format (not the league's nights, nor the big event), each two rounds in with a
    late entry, a fixed table and current standings; a Deck Masters duel in progress with a negated Ability; an
    event open for registration that the demo player entered."""
    from demo import big_event

    played = (
        Event.objects.exclude(status=Event.Status.REGISTRATION)
        .filter(season_link__isnull=True)
        .exclude(name=big_event.NAME)
    )
    assert played.count() == 5
    assert set(played.values_list("format", flat=True)) == {
        "master-trainer",
        "format3-trinity",
        "mt-silver",
        "deck-masters",
        "mintayn-master",
    }
    for event in played:
        assert event.rounds.count() == 2
        assert event.registrations.filter(late_entry_round=2).count() == 1
        assert event.registrations.filter(fixed_table=2).count() == 1
        assert event.standings.exists()
        assert event.standings_current
    open_event = Event.objects.get(status=Event.Status.REGISTRATION)
    assert open_event.registrations.filter(player__user__username="player").exists()
    duel = Game.objects.get(pod__round__event__in=played.filter(format="deck-masters"))
    ability = duel.events.get(type="activate_ability")
    assert ability.payload["negated"] is True
    first = next(p for p in duel.state["players"] if p["id"] == ability.payload["player"])
    assert first["abilities_used"] and first["lp"] == 7300


def _the_big_event(client) -> None:
    """Two phases, byes for the qualified in round 1, round 1 played with a judge call and deck checks, round 2
    staged: the organiser's dashboard opens on it."""
    from demo import big_event

    regionals = Event.objects.get(name=big_event.NAME)
    assert [p.name for p in regionals.phases.order_by("number")] == ["Day 1", "Day 2"]
    assert regionals.stage_pairings and regionals.planned_cut_size == big_event.CUT
    assert regionals.registrations.count() == big_event.PLAYERS
    byes = regionals.rounds.get(number=1).pods.filter(is_bye=True)
    assert sorted(byes.values_list("seats__player__display_name", flat=True)) == sorted(big_event.QUALIFIED)
    assert regionals.rounds.get(number=2).published_at is None
    assert JudgeCall.objects.filter(event=regionals, state="resolved").count() == 1
    assert sorted(DeckCheck.objects.filter(event=regionals).values_list("outcome", flat=True)) == ["ok", "problem"]
    client.login(username="organiser", password="podium-demo")
    assert client.get(reverse("dashboard:event-list")).status_code == 200
    assert "Round 2 is staged" in client.get(reverse("dashboard:event-detail", args=[regionals.pk])).content.decode()


def _the_league(client) -> None:
    """A season of played nights in two formats, its standings, ratings and a meta report."""
    season = Season.objects.get(league__name__startswith="Demo")
    assert season.standings_current and season.standings.count() > 10
    assert set(season.season_events.values_list("event__format", flat=True)) == {"deck-masters", "mt-silver"}
    assert PlayerRating.objects.filter(format="deck-masters", games__gte=5).count() >= 5
    client.login(username="organiser", password="podium-demo")
    rows = client.get(f"/api/v1/seasons/{season.pk}/meta/").json()["rows"]
    assert any(r["hidden"] for r in rows) and any(r["archetype"] == "Dark Magician" for r in rows)


def _the_people(client) -> None:
    """The Deck Masters event runs on player reports: the demo player registered themselves and has a result to
    confirm, one table is disputed; every event has the demo judge and scorekeeper; the open event has check-in
    open and a waiting list; the demo accounts sign in."""
    duel = Event.objects.get(format="deck-masters", season_link__isnull=True, phase_count=0)
    assert duel.player_reports and duel.status == Event.Status.RUNNING
    mine = Seat.objects.get(round__event=duel, round__number=2, player__user__username="player")
    assert not mine.pod.is_bye
    assert ResultReport.objects.get(pod=mine.pod).status == ResultReport.Status.PENDING  # theirs to confirm
    assert Registration.objects.get(event=duel, player__user__username="player").self_registered
    assert ResultReport.objects.filter(pod__round__event=duel, status=ResultReport.Status.DISPUTED).count() == 1
    assert Seat.objects.filter(round__event=duel, round__number=1, games_won__isnull=False).count() == 12
    for event in Event.objects.all():
        assert set(EventStaff.objects.filter(event=event).values_list("user__username", "role")) == {
            ("judge", "judge"),
            ("scorekeeper", "scorekeeper"),
        }
    open_event = Event.objects.get(status=Event.Status.REGISTRATION)
    assert open_event.check_in_open and open_event.registrations.filter(status="waitlisted").count() == 2
    for username in ("player", "judge", "scorekeeper"):
        assert client.login(username=username, password="podium-demo"), username
    client.login(username="judge", password="podium-demo")
    page = client.get(url("event-detail", duel.pk)).content.decode()
    assert "disputed" in page and "Record game" in page


def _the_penalty(client) -> None:
    """The demo judge warned the demo player once (however often the demo runs); the player's page shows it with
    their league season and rating history; the judge's penalties page offers a new one."""
    warning = Penalty.objects.get()
    assert (warning.penalty, warning.issued_by.username) == ("warning", "judge")
    assert warning.registration.player.user.username == "player" and warning.event.status == Event.Status.RUNNING
    assert warning.round_number == 2 and not warning.rescinded
    client.login(username="player", password="podium-demo")
    me = client.get(reverse("accounts:me")).content.decode()
    assert "Warning:</strong> Drawing extra cards" in me
    assert "Leagues and ratings" in me and "Winter season" in me and 'class="chart-line"' in me
    client.login(username="judge", password="podium-demo")
    page = client.get(url("event-penalties", warning.event_id)).content.decode()
    assert "Give a penalty" in page and "Drawing extra cards" in page


def _the_mintayn_pool(client) -> None:
    """The Mintayn event has the sample pool (52 invented cards) and a legal deck for everyone who registered before
    round 1; the demo player's own deck is on their deck page."""
    assert CatalogueVersion.objects.get(family="mintayn").card_count == 52
    event = Event.objects.get(name="Demo · Mintayn Master Cup")
    registrations = list(event.registrations.filter(late_entry_round=None).select_related("player__user"))
    latest = {d.registration_id: d for d in DeckVersion.objects.filter(registration__event=event).order_by("number")}
    assert set(latest) == {r.pk for r in registrations} and len(registrations) == 12
    assert {d.status for d in latest.values()} == {DeckVersion.Status.LEGAL}
    (mine,) = [r for r in registrations if r.player.user and r.player.user.username == "player"]
    forge = SAMPLES / "mintayn-master-sample-deck-forge.txt"
    assert latest[mine.pk].decklist == forge.read_text(encoding="utf-8")
    client.login(username="player", password="podium-demo")
    page = client.get(f"/events/{event.pk}/deck/").content.decode()
    assert "is legal (60 cards)." in page
