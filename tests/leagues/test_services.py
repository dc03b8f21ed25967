"""Leagues on the database: seasons of played events, their standings task, ratings in play order, the rules."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection

from core.exceptions import ApplicationError, Conflict, PermissionDenied
from leagues import services as league_services
from leagues import tasks
from leagues.models import LeagueAuditEntry, PlayerRating, RatingChange, Season, SeasonStanding
from leagues.services.ratings import ratings_recompute
from tests.factories import RegistrationFactory
from tests.support.events import make_event
from tests.support.leagues import committed, make_league, played_event, players
from tournaments import policy, services
from tournaments.services.results import result_correct

pytestmark = pytest.mark.django_db


def _ratings(fmt):
    return sorted(PlayerRating.objects.filter(format=fmt).values_list("player_id", "mu", "sigma", "games"))


def _history(fmt):
    return sorted(
        RatingChange.objects.filter(format=fmt).values_list("key", "player_id", "mu_after", "sigma_after", "games")
    )


def test_a_season_of_played_events_has_standings_and_ratings_after_the_readers_ran(organiser):
    league, season = make_league(organiser)
    field = players(8)
    played_event(organiser, season=season, field=field, day=3)
    played_event(organiser, season=season, field=field[:4] + players(4, "M"), day=10, format="mt-silver")
    season.refresh_from_db()
    assert season.standings_current and season.standings_version > 0
    table = list(SeasonStanding.objects.filter(season=season).order_by("rank", "player_id"))
    assert len(table) == 12 and table[0].rank == 1
    regulars = [s for s in table if s.player_id in {p.pk for p in field[:4]}]
    assert all(s.events_played == 2 for s in regulars)
    assert PlayerRating.objects.filter(format="deck-masters").count() == 8
    assert PlayerRating.objects.filter(format="mt-silver", games=3).count() == 8
    # Incremental updates as results came in == everything rated again from scratch.
    before = (_ratings("deck-masters"), _history("deck-masters"))
    ratings_recompute(format_slug="deck-masters")
    assert (_ratings("deck-masters"), _history("deck-masters")) == before


def test_running_the_tasks_twice_changes_nothing(organiser):
    _, season = make_league(organiser)
    played_event(organiser, season=season, field=players(6), day=2)
    snapshot = (list(SeasonStanding.objects.values_list()), _history("deck-masters"), _ratings("deck-masters"))
    version = Season.objects.get(pk=season.pk).standings_version
    for _ in range(2):
        assert tasks.update_ratings.apply(args=["deck-masters"]).get() == 0
        tasks.recompute_season.apply(args=[season.pk]).get()
    assert Season.objects.get(pk=season.pk).standings_version == version
    assert (list(SeasonStanding.objects.values_list()), _history("deck-masters"), _ratings("deck-masters")) == snapshot


def test_a_corrected_result_is_rated_again_from_that_table_on_as_if_from_scratch(organiser):
    _, season = make_league(organiser)
    field = players(6)
    first = played_event(organiser, season=season, field=field, day=2)
    played_event(organiser, season=season, field=field, day=9)
    pod = first.rounds.get(number=1).pods.filter(is_bye=False).order_by("table_number").first()
    a, b = sorted(pod.seats.all(), key=lambda s: s.seat_order)
    with committed():
        result_correct(
            event=first, round_number=1, table_number=pod.table_number, placements={a.player_id: 2, b.player_id: 1},
            reason="slip signed the wrong way", by=organiser,
        )  # fmt: skip
    # The table's changes say what it was rated with: the corrected placements.
    rated = dict(RatingChange.objects.filter(pod=pod).values_list("player_id", "placement"))
    assert rated == {a.player_id: 2, b.player_id: 1}
    corrected = (_ratings("deck-masters"), _history("deck-masters"))
    ratings_recompute(format_slug="deck-masters")
    assert (_ratings("deck-masters"), _history("deck-masters")) == corrected


def test_an_event_played_earlier_but_entered_later_is_rated_in_play_order(organiser):
    field = players(6)
    played_event(organiser, field=field, day=20)
    played_event(organiser, field=field, day=5)  # results entered after, played before
    late = (_ratings("deck-masters"), _history("deck-masters"))
    ratings_recompute(format_slug="deck-masters")
    assert (_ratings("deck-masters"), _history("deck-masters")) == late
    keys = [k for k, *_ in _history("deck-masters")]
    assert keys[0].startswith("2026-12-05")


def test_editing_the_points_table_recomputes_the_standings_and_is_in_the_trail(organiser):
    _, season = make_league(organiser)
    played_event(organiser, season=season, field=players(6), day=2)
    old = {s.player_id: s.points for s in SeasonStanding.objects.filter(season=season)}
    with committed():
        league_services.season_update(
            season=season, by=organiser, preset="attendance", reason="reward turning up this season"
        )
    new = {s.player_id: s.points for s in SeasonStanding.objects.filter(season=season)}
    assert set(new.values()) == {1} and old != new
    entry = LeagueAuditEntry.objects.filter(action="season.updated").get()
    assert entry.reason == "reward turning up this season"
    assert entry.before["points_table"] != entry.after["points_table"]
    with pytest.raises(ApplicationError) as bad:
        league_services.season_update(season=season, by=organiser, points_table={"match_win": -3})
    assert bad.value.code == "invalid_points_table"


def test_an_event_belongs_to_one_season_and_moving_it_recomputes_both(organiser):
    league, season = make_league(organiser)
    other = league_services.season_create(
        league=league, name="Spring", starts_on=season.starts_on, ends_on=season.ends_on, by=organiser
    )
    event = played_event(organiser, season=season, field=players(4), day=2)
    with pytest.raises(Conflict) as refused:
        league_services.season_event_add(season=other, event=event, by=organiser)
    assert refused.value.code == "event_in_season"
    with committed():
        league_services.season_event_add(season=other, event=event, by=organiser, move=True)
    assert not SeasonStanding.objects.filter(season=season).exists()
    assert SeasonStanding.objects.filter(season=other).count() == 4


def test_an_event_of_a_format_the_league_does_not_hold_is_refused(organiser):
    _, season = make_league(organiser, formats=["deck-masters"])
    event = played_event(organiser, field=players(4), format="mintayn-master", day=2)
    with pytest.raises(Conflict) as refused:
        league_services.season_event_add(season=season, event=event, by=organiser)
    assert refused.value.code == "format_not_in_league"


def test_the_leagues_staff_hold_their_roles_at_its_events(organiser, outsider, django_user_model):
    league, season = make_league(organiser)
    event = played_event(organiser, season=season, field=players(4), day=2)
    judge = django_user_model.objects.create_user(username="league-judge", password="pw")
    assert not policy.can(judge, policy.Action.ISSUE_PENALTIES, event)
    league_services.league_staff_add(league=league, username="league-judge", role="judge", by=organiser)
    judge = django_user_model.objects.get(pk=judge.pk)  # roles are remembered per request (per user object)
    assert policy.can(judge, policy.Action.ISSUE_PENALTIES, event)
    assert not policy.can(judge, policy.Action.EDIT_EVENT, event)
    assert not policy.can(outsider, policy.Action.USE_DASHBOARD, event)
    with pytest.raises(PermissionDenied):
        league_services.season_update(season=season, by=judge, preset="attendance")


def test_seeding_round_one_by_rating_keeps_the_strongest_apart(organiser):
    field = players(8)
    played_event(organiser, field=field, day=2, rounds=3)
    top = sorted(PlayerRating.objects.filter(format="deck-masters"), key=lambda r: -r.rating)
    event = make_event(organiser, 0)
    for player in field:
        RegistrationFactory(event=event, player=player)
    with committed():
        round_ = services.round_start(event=event, by=organiser, seeding="rating")
    table_one = {s.player_id for s in round_.seats.filter(pod__table_number=1)}
    assert top[0].player_id in table_one and top[1].player_id not in table_one
    assert all("seeded_by_rating" in s.reasons for s in round_.seats.all())


def test_a_recompute_written_by_binary_copy_stores_the_figures_the_updates_stored(organiser, monkeypatch):
    # A season's recompute writes its history with COPY above _COPY_FROM rows; forced here on a small event, the
    # stored floats must be exactly those the incremental updates wrote with INSERT.
    from leagues.services import ratings as rating_services

    _, season = make_league(organiser)
    played_event(organiser, season=season, field=players(8), day=4)
    before = (_ratings("deck-masters"), _history("deck-masters"))
    monkeypatch.setattr(rating_services, "_COPY_FROM", 0 if connection.vendor == "postgresql" else 10**9)

    ratings_recompute(format_slug="deck-masters")

    assert (_ratings("deck-masters"), _history("deck-masters")) == before
    assert len(before[1]) > 0


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite takes no row locks")
def test_a_recompute_refuses_ratings_for_a_player_that_does_not_exist(organiser):
    # The history has no foreign key to the player in the database: the recompute checks its players once each,
    # and keeps them locked until it commits.
    from leagues.services import ratings as rating_services

    field = players(2)
    rating_services._lock_players({p.pk for p in field})
    with pytest.raises(IntegrityError, match="do not exist"):
        rating_services._lock_players({field[0].pk, 10**12})


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite takes no row locks")
def test_the_ratings_refuse_a_table_that_does_not_exist(organiser):
    # Nor to the table (pod): the service locks the tables it rates once each, until it commits.
    from leagues.services import ratings as rating_services
    from tournaments.models import Pod

    event = played_event(organiser, field=players(4), day=2)
    pods = list(Pod.objects.filter(round__event=event).values_list("pk", flat=True))
    rating_services._lock_pods(pods)
    with pytest.raises(IntegrityError, match=f"tables that do not exist: \\[{10**12}\\]"):
        rating_services._lock_pods([pods[0], 10**12])
