"""Moving an event: ``event_export`` writes a bundle, ``event_import`` stores it as a new event with the same
standings, results, seats, decks and audit trail, or refuses it whole."""

from __future__ import annotations

import copy
import json

import pytest
from django.core.management import CommandError, call_command

from decks import services as deck_services
from decks.models import DeckVersion
from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.events import report_all
from tournaments import services
from tournaments.models import AuditEntry, Event, Player, Seat, Standing

pytestmark = pytest.mark.django_db


@pytest.fixture
def venue_event(organiser):
    """The venue laptop's event: six players (two with an external id), decks (one ruled on), two rounds
    reported, a penalty, standings stored."""
    event = services.event_create(
        organiser=organiser, name="Saturday cup", format="deck-masters", planned_rounds=3,
        date=__import__("datetime").date(2026, 12, 5), venue="The Games Room",
    )  # fmt: skip
    for i in range(6):
        player = PlayerFactory(display_name=f"P{i:02d}", external_id=f"KID-{i}" if i < 2 else None)
        registration = RegistrationFactory(event=event, player=player)
        deck_services.deck_submit(registration=registration, decklist=f"3 Card {i}\n", roles={}, by=organiser)
    deck = DeckVersion.objects.filter(registration__event=event).order_by("id").first()
    deck_services.deck_verdict_override(version=deck, status="illegal", reason="Proxy cards.", by=organiser)
    services.round_start(event=event, by=organiser, seed=1)
    report_all(event, organiser)
    services.penalty_issue(
        event=event, registration_id=deck.registration_id, penalty="warning", infraction="Slow play", by=organiser
    )
    services.round_start(event=event, by=organiser, seed=2)
    report_all(event, organiser, winner_seat=2)
    services.standings_recompute(event_id=event.pk)
    event.refresh_from_db()
    return event


@pytest.fixture
def main_site_organiser(django_user_model):
    return django_user_model.objects.create_user(username="main-organiser", password="pw")


def export(event, path) -> dict:
    call_command("event_export", str(event.pk), "-o", str(path), "--source", "venue-laptop")
    return json.loads(path.read_text())


def imported(path, username: str = "main-organiser", *flags: str) -> Event:
    before = set(Event.objects.values_list("pk", flat=True))
    call_command("event_import", str(path), "--organiser", username, *flags)
    (new,) = Event.objects.exclude(pk__in=before)
    return new


def standings_of(event) -> list[tuple]:
    return [
        (s.player.display_name, s.rank, s.points, s.wins, s.draws, s.losses, s.byes, s.opp_match_win_pct)
        for s in Standing.objects.filter(event=event).select_related("player").order_by("rank", "player__display_name")
    ]


def seats_of(event) -> list[tuple]:
    return sorted(
        (s.round.number, s.pod.table_number, s.seat_order, s.player.display_name, s.placement, s.points)
        for s in Seat.objects.filter(round__event=event).select_related("round", "pod", "player")
    )


def decks_of(event) -> list[tuple]:
    return sorted(
        (d.registration.player.display_name, d.number, d.decklist, d.status, d.effective_status, d.rulings.count())
        for d in DeckVersion.objects.filter(registration__event=event).select_related("registration__player", "ruling")
    )


def test_an_imported_event_has_the_sources_standings_results_seats_decks_and_audit_trail(
    venue_event, main_site_organiser, tmp_path
):
    bundle = export(venue_event, tmp_path / "cup.json")
    assert bundle["podium_bundle"] == 1 and bundle["source"] == "venue-laptop"
    assert len(bundle["rounds"]) == 2 and len(bundle["penalties"]) == 1

    copy = imported(tmp_path / "cup.json")

    assert copy.pk != venue_event.pk
    assert copy.organiser == main_site_organiser
    assert (copy.name, copy.status, copy.venue, copy.planned_rounds) == (
        "Saturday cup", "running", "The Games Room", 3,
    )  # fmt: skip
    assert copy.standings_current
    assert standings_of(copy) == standings_of(venue_event) != []
    assert seats_of(copy) == seats_of(venue_event)
    assert list(copy.rounds.values_list("number", "seed")) == list(venue_event.rounds.values_list("number", "seed"))
    assert decks_of(copy) == decks_of(venue_event)
    assert copy.penalties.get().infraction == "Slow play"
    assert copy.penalties.get().issued_at == venue_event.penalties.get().issued_at
    source_audit = AuditEntry.objects.filter(event=venue_event).order_by("created_at", "id")
    copy_audit = AuditEntry.objects.filter(event=copy).exclude(action="event.imported").order_by("created_at", "id")
    assert [(e.action, e.subject, e.created_at) for e in copy_audit] == [
        (e.action, e.subject, e.created_at) for e in source_audit
    ]
    assert all("Imported from venue-laptop; made there by organiser." in e.reason for e in copy_audit)
    marker = AuditEntry.objects.get(event=copy, action="event.imported")
    assert marker.after["source"] == "venue-laptop" and marker.after["source_event_id"] == venue_event.pk


def test_who_acted_is_linked_to_the_account_of_the_same_username_only_when_asked(
    venue_event, main_site_organiser, organiser, tmp_path
):
    """The venue's ``organiser`` has an account of the same username here (the same database): by default the
    imported penalty, results and audit entries name them in words only; ``--link-accounts`` links them."""
    export(venue_event, tmp_path / "cup.json")

    unlinked = imported(tmp_path / "cup.json")
    linked = imported(tmp_path / "cup.json", "main-organiser", "--link-accounts")

    assert unlinked.penalties.get().issued_by is None
    assert not AuditEntry.objects.filter(event=unlinked, actor=organiser).exists()
    assert linked.penalties.get().issued_by == organiser
    assert AuditEntry.objects.filter(event=linked, actor=organiser).exclude(action="event.imported").exists()


def test_players_with_an_external_id_are_matched_and_the_others_become_new_walk_in_records(
    venue_event, main_site_organiser, tmp_path
):
    export(venue_event, tmp_path / "cup.json")
    players_before = Player.objects.count()
    copy = imported(tmp_path / "cup.json")

    source_players = {r.player.display_name: r.player for r in venue_event.registrations.select_related("player")}
    copied = {r.player.display_name: r.player for r in copy.registrations.select_related("player")}
    assert copied["P00"].pk == source_players["P00"].pk  # KID-0 is the same person here
    assert copied["P01"].pk == source_players["P01"].pk
    assert all(copied[n].pk != source_players[n].pk and copied[n].user is None for n in ("P02", "P03", "P04", "P05"))
    assert Player.objects.count() == players_before + 4


def test_a_second_import_of_the_same_bundle_makes_another_event(venue_event, main_site_organiser, tmp_path):
    export(venue_event, tmp_path / "cup.json")
    first, second = imported(tmp_path / "cup.json"), imported(tmp_path / "cup.json")
    assert first.pk != second.pk
    assert standings_of(first) == standings_of(second) == standings_of(venue_event)


def corrupt(bundle: dict, how: str) -> dict:
    if how == "missing key":
        del bundle["rounds"]
    elif how == "newer version":
        bundle["podium_bundle"] = 2
    elif how == "unknown player":
        bundle["seats"][3]["player"] = 999_999
    elif how == "unknown stage":
        bundle["rounds"][1]["stage"] = "finals"
    elif how == "unknown option":
        bundle["event"]["options"] = {"no_such_option": 1}
    elif how == "database rule":
        # Passes the shape's checks, then breaks "one seat per player per round" after rows are stored.
        bundle["seats"][1]["player"] = bundle["seats"][0]["player"]
    return bundle


#: Each way a bundle is corrupted, and what the refusal says.
CORRUPTIONS = [
    ("missing key", "$.rounds: is missing"),
    ("newer version", "$.podium_bundle: version 2 was written by a newer Podium"),
    ("unknown player", "$.seats[3].player: 999999 is not the id of one of the bundle's players"),
    ("unknown option", "$.event.options: "),
    ("unknown stage", "$.rounds[1].stage: 'finals' is not one of swiss, top_cut"),
    ("database rule", "break a rule of the database"),
]


def test_a_corrupt_bundle_is_refused_with_what_is_wrong_and_nothing_is_stored(
    venue_event, main_site_organiser, tmp_path
):
    good = export(venue_event, tmp_path / "cup.json")  # one event exported, corrupted six ways
    counts = (Event.objects.count(), Player.objects.count(), Seat.objects.count(), AuditEntry.objects.count())
    for how, says in CORRUPTIONS:
        (tmp_path / "bad.json").write_text(json.dumps(corrupt(copy.deepcopy(good), how)))

        with pytest.raises(CommandError) as refused:
            call_command("event_import", str(tmp_path / "bad.json"), "--organiser", "main-organiser")

        assert says in str(refused.value), how
        assert "Nothing was stored." in str(refused.value), how
        stored = (Event.objects.count(), Player.objects.count(), Seat.objects.count(), AuditEntry.objects.count())
        assert stored == counts, how


def test_import_names_an_unknown_organiser_and_a_file_that_is_not_json(main_site_organiser, tmp_path):
    (tmp_path / "notes.txt").write_text("not json")
    with pytest.raises(CommandError, match="No account has the username 'nobody'"):
        call_command("event_import", str(tmp_path / "notes.txt"), "--organiser", "nobody")
    with pytest.raises(CommandError, match="is not JSON"):
        call_command("event_import", str(tmp_path / "notes.txt"), "--organiser", "main-organiser")


def test_the_new_events_organiser_must_be_allowed_to_organise_events_here(
    venue_event, main_site_organiser, tmp_path, settings
):
    export(venue_event, tmp_path / "cup.json")
    settings.PODIUM_OPEN_ORGANISING = False
    events_before = Event.objects.count()
    with pytest.raises(CommandError, match="main-organiser cannot organise the event: .*organiser permission"):
        call_command("event_import", str(tmp_path / "cup.json"), "--organiser", "main-organiser")
    assert Event.objects.count() == events_before


def test_exporting_an_event_that_does_not_exist_says_so():
    with pytest.raises(CommandError, match="Event 424242 does not exist"):
        call_command("event_export", "424242")
