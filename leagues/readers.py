"""What the leagues app does with the domain events (:mod:`core.events`).

* **The league's trail**: every audited ``league.*`` and ``season.*`` event is
  kept for its league (:class:`~leagues.models.LeagueAuditEntry`), in the
  change's transaction, besides the site-wide audit trail.
* **Season standings**: a change they depend on (an event's standings stored
  anew, ``standings.updated``; a points table changed; an event attached,
  moved or removed) marks the seasons out of date in its transaction and, once
  committed, asks for their recompute, coalesced per season.
* **Ratings**: a table's result entered, settled, confirmed or corrected, or an
  event's date changed, asks for its format's ratings to be brought up to date
  once committed, coalesced per format.
* **Roles**: the league's staff hold their roles at its events; the
  permission policy asks this app where those roles are stored
  (:func:`tournaments.policy.league_role_source`).
* **Points**: an event's priority window may open early for a season's
  players with enough league points; this app answers for them
  (:func:`tournaments.selectors.people.season_points_source`).

Loaded by :class:`leagues.apps.LeaguesConfig` at start.
"""

from __future__ import annotations

from django.db.models import CharField, Value

from core import events, jobs
from core.domain_actions import DomainAction
from core.events import DomainEvent
from leagues.models import League, LeagueAuditEntry, LeagueStaff, Season, SeasonStanding
from leagues.services import ratings, seasons
from tournaments import policy, seeding
from tournaments.models import Event
from tournaments.selectors import people as people_selectors

# --- roles ---------------------------------------------------------------------------------------------


def _roles_at_event(user_id: int, event_id: int):
    """The roles the user holds at the event through its league: two queries for the policy to join to the event's
    own in one."""
    staff = LeagueStaff.objects.filter(user_id=user_id, league__seasons__season_events__event_id=event_id)
    owner = League.objects.filter(organiser_id=user_id, seasons__season_events__event_id=event_id).annotate(
        role=Value(policy.LEAGUE_ROLE_AT_EVENTS.value, output_field=CharField())
    )
    return staff.order_by().values_list("role", flat=True), owner.order_by().values_list("role", flat=True)


def _roles_in_league(user_id: int, league: League):
    return LeagueStaff.objects.filter(user_id=user_id, league_id=league.pk).order_by().values_list("role", flat=True)


policy.league_role_source(at_event=_roles_at_event, in_league=_roles_in_league)


# --- league points for priority windows ------------------------------------------------------------------


def _season_points(season_id: int) -> people_selectors.SeasonPoints | None:
    """A season's name and its players' points in its stored standings (two queries), for an event's priority
    window (:mod:`tournaments.services.entry`)."""
    season = Season.objects.filter(pk=season_id).only("name").first()
    if season is None:
        return None
    points = dict(SeasonStanding.objects.filter(season_id=season_id).values_list("player_id", "points"))
    return people_selectors.SeasonPoints(name=season.name, points=points)


people_selectors.season_points_source(_season_points)


# --- the league's trail --------------------------------------------------------------------------------

LEAGUE_ACTIONS = (
    DomainAction.LEAGUE_CREATED, DomainAction.LEAGUE_UPDATED,
    DomainAction.LEAGUE_STAFF_ADDED, DomainAction.LEAGUE_STAFF_CHANGED, DomainAction.LEAGUE_STAFF_REMOVED,
    DomainAction.SEASON_CREATED, DomainAction.SEASON_UPDATED,
    DomainAction.SEASON_EVENT_ADDED, DomainAction.SEASON_EVENT_MOVED, DomainAction.SEASON_EVENT_REMOVED,
)  # fmt: skip


@events.handler(*LEAGUE_ACTIONS)
def league_trail(domain_event: DomainEvent) -> None:
    if domain_event.audited and domain_event.data.get("league_id"):
        LeagueAuditEntry.objects.create(
            league_id=domain_event.data["league_id"], season_id=domain_event.data.get("season_id"),
            actor_id=domain_event.actor_id, action=domain_event.action, subject=domain_event.subject[:200],
            before=domain_event.before, after=domain_event.after, reason=domain_event.reason,
        )  # fmt: skip


# --- season standings ----------------------------------------------------------------------------------

SEASON_ACTIONS = (
    DomainAction.SEASON_UPDATED,
    DomainAction.SEASON_EVENT_ADDED,
    DomainAction.SEASON_EVENT_MOVED,
    DomainAction.SEASON_EVENT_REMOVED,
)


@events.handler(*SEASON_ACTIONS)
def seasons_out_of_date(domain_event: DomainEvent) -> None:
    seasons.bump_version(list(domain_event.data.get("season_ids") or []))


@events.handler(DomainAction.STANDINGS_UPDATED)
def event_seasons_out_of_date(domain_event: DomainEvent) -> None:
    if domain_event.event_id:
        seasons.bump_version(seasons.seasons_of_event(domain_event.event_id))


def season_recompute_request(season_id: int) -> bool:
    return jobs.enqueue(seasons.RECOMPUTE_TASK, season_id, key=seasons.job_key(season_id), spacing=1.0)


@events.reader(*SEASON_ACTIONS)
def season_recompute_on_change(domain_event: DomainEvent) -> None:
    for season_id in domain_event.data.get("season_ids") or []:
        season_recompute_request(season_id)


@events.reader(DomainAction.STANDINGS_UPDATED)
def season_recompute_on_standings(domain_event: DomainEvent) -> None:
    if domain_event.event_id:
        for season_id in seasons.seasons_of_event(domain_event.event_id):
            season_recompute_request(season_id)


def seasons_sweep() -> int:
    stale = seasons.stale_season_ids()
    for season_id in stale:
        jobs.enqueue(seasons.RECOMPUTE_TASK, season_id, key=seasons.job_key(season_id))
    return len(stale)


# --- ratings -------------------------------------------------------------------------------------------

RATING_ACTIONS = (
    DomainAction.RESULT_ENTERED,
    DomainAction.RESULT_SETTLED,
    DomainAction.RESULT_CONFIRMED,
    DomainAction.RESULT_CORRECTED,
    DomainAction.EVENT_UPDATED,
)


def ratings_request(format_slug: str) -> bool:
    return jobs.enqueue(ratings.UPDATE_TASK, format_slug, key=ratings.job_key(format_slug), spacing=0.5)


@events.reader(*RATING_ACTIONS)
def ratings_update_request(domain_event: DomainEvent) -> None:
    if not domain_event.event_id:
        return
    if domain_event.action == DomainAction.EVENT_UPDATED and "date" not in (domain_event.after or {}):
        return
    format_slug = domain_event.data.get("format") or (  # results give it; an event's update does not
        Event.objects.filter(pk=domain_event.event_id).values_list("format", flat=True).first()
    )
    if format_slug:
        ratings_request(format_slug)


def ratings_sweep() -> int:
    stale = ratings.stale_formats()
    for format_slug in stale:
        jobs.enqueue(ratings.UPDATE_TASK, format_slug, key=ratings.job_key(format_slug))
    return len(stale)


# --- seeding round 1 by rating -------------------------------------------------------------------------


@seeding.rating_source
def displayed_ratings(format_slug: str, player_ids) -> dict[int, float]:
    return ratings.displayed_ratings(format_slug=format_slug, player_ids=player_ids)
