"""Reads of the decks app that views, API views, services and other apps share.

Each reads what it needs in a fixed number of queries (its docstring says how many), whatever the
number of players or deck versions.  A selector that feeds a page or an answer returns a list or a
row, so the template or serializer that reads it runs no query; one that returns a queryset is for
``get_object_or_404`` (or for another selector to build on).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.db.models import OuterRef, QuerySet, Subquery

from decks import catalogue
from decks.models import DeckRecheck, DeckVersion, StoredBanlist, effective_status
from decks.parsers.yugioh import resolve_reference
from rules.cards import YugiohCard as YugiohCardRecord
from rules.deckrules import Problem
from tournaments.models import Event, Registration

if TYPE_CHECKING:
    pass


# --- the newest deck version: the one reading of it, for every app ---------------------------------------------


def _newest_first(registration: Registration | OuterRef) -> QuerySet[DeckVersion]:
    """The registration's deck versions, newest first (a player's deck is their newest version); those of a
    registration that was read know it without a query."""
    if isinstance(registration, Registration):
        return registration.deck_versions.order_by("-number")
    return DeckVersion.objects.filter(registration=registration).order_by("-number")


def latest_versions(event: Event | int) -> QuerySet[DeckVersion]:
    """The newest deck version of every registration of ``event`` (or the event's id): one query."""
    newest = _newest_first(OuterRef("registration")).values("pk")[:1]
    return DeckVersion.objects.filter(registration__event=event, pk=Subquery(newest))


def latest_versions_of_events(*, events: Iterable[Event]) -> QuerySet[DeckVersion]:
    """The newest deck version of every registration of these events, in bulk and in no order (the versions' own
    order joins the players to sort thousands of rows by name; order them when you need to): one query."""
    newest = _newest_first(OuterRef("registration")).values("pk")[:1]
    return DeckVersion.objects.filter(registration__event__in=list(events), pk=Subquery(newest)).order_by()


def latest_versions_by_player(*, event: Event | int, player_ids: Iterable[int]) -> dict[int, DeckVersion]:
    """``{player id: newest deck version}`` of these players at the event (a player without a deck is left out):
    one query."""
    versions = latest_versions(event).filter(registration__player_id__in=list(player_ids))
    # A dict: in no order, so the players are not joined to sort the versions by name.
    return {version.registration.player_id: version for version in versions.select_related("registration").order_by()}


def latest_deck_status() -> Subquery:
    """The status shown of the newest deck of the registration a query reads (a judge's ruling over the checker's
    verdict; ``None``: no deck), to annotate registrations with: a subquery of theirs, no query of its own."""
    return Subquery(_newest_first(OuterRef("pk")).values(shown=effective_status())[:1])


def latest_version_number(*, registration: Registration) -> int | None:
    """The number of the registration's newest deck version, ``None``: no deck yet.  One query."""
    return _newest_first(registration).values_list("number", flat=True).first()


def deck_statuses(*, event: Event, player_ids: Iterable[int]) -> dict[int, str]:
    """``{player id: status}`` of each player's latest deck at ``event`` (a judge's ruling over the checker's
    verdict); players without a deck are left out.  One query."""
    return dict(
        latest_versions(event)
        .filter(registration__player_id__in=list(player_ids))
        .values_list("registration__player_id", effective_status())
    )


def registrations_by_name(*, event: Event) -> list[Registration]:
    """Every registration of the event with its player, by the player's name, but invitations its players have
    not accepted (they are not in the event): one query."""
    registrations = event.registrations.exclude(status=Registration.Status.INVITED)
    return list(registrations.select_related("player").order_by("player__display_name"))


# --- a registration's deck versions ------------------------------------------------------------------------------


def deck_versions_of(*, registration: Registration) -> QuerySet[DeckVersion]:
    """The registration's deck versions (each knows its registration), to look one up by number: one query."""
    return registration.deck_versions.all()


def deck_version_numbered(*, registration: Registration, number: int) -> DeckVersion | None:
    """Version ``number`` of the registration's deck; ``None``: there is none.  One query."""
    return registration.deck_versions.filter(number=number).first()


def deck_version_latest(*, registration: Registration) -> DeckVersion | None:
    """The registration's newest deck version with its ruling; ``None``: no deck yet.  One query."""
    return _newest_first(registration).select_related("ruling").first()


def deck_versions_recent(*, registration: Registration, limit: int = 10) -> list[DeckVersion]:
    """The registration's ``limit`` newest deck versions, newest first, with their rulings: one query."""
    return list(_newest_first(registration).select_related("ruling")[:limit])


def deck_versions_ruled(*, registration: Registration) -> list[DeckVersion]:
    """Every deck version of the registration, newest first, with its ruling and who made it: one query."""
    return list(_newest_first(registration).select_related("ruling__by"))


def deck_version_with_registration(*, version_id: int) -> DeckVersion:
    """The deck version with its registration, player, event, ruling and who made the ruling: one query."""
    return DeckVersion.objects.select_related("registration__player", "registration__event", "ruling__by").get(
        pk=version_id
    )


def deck_version_refreshed(*, version: DeckVersion) -> DeckVersion:
    """``version`` read again (the checker may have given its verdict since it was stored): one query."""
    version.refresh_from_db()
    return version


# --- an event's decks --------------------------------------------------------------------------------------------


def latest_versions_listed(*, event: Event) -> QuerySet[DeckVersion]:
    """The newest deck version of every registration of the event, by registration, each with its registration,
    player, event, ruling and who made the ruling: one query for a page of them."""
    return (
        latest_versions(event)
        .select_related("registration__player", "registration__event", "ruling__by")
        .order_by("registration_id")
    )


def latest_versions_by_registration(*, event: Event) -> dict[int, DeckVersion]:
    """``{registration id: its newest deck version}`` with the ruling and who made it: one query."""
    return {v.registration_id: v for v in latest_versions(event).select_related("ruling__by")}


def deck_recheck_latest(*, event_id: int) -> DeckRecheck | None:
    """The event's latest "re-check all decks" run; ``None``: there has been none.  One query."""
    return DeckRecheck.objects.filter(event_id=event_id).order_by("-started_at").first()


def deck_recheck_refreshed(*, run: DeckRecheck) -> DeckRecheck:
    """``run`` read again (its progress moves while the checks run): one query."""
    run.refresh_from_db()
    return run


def banlist_names() -> tuple[str, ...]:
    """The names of the imported Yu-Gi-Oh! banlists, newest first: one query."""
    return tuple(StoredBanlist.objects.values_list("name", flat=True))


def undone_checks() -> tuple[list[int], list[int]]:
    """What the deck checks left undone (e.g. while the broker was away): versions still pending, and the
    re-checks of an event that never finished (their ids).  The sweep (:mod:`decks.readers`) asks for them
    again.  Two queries."""
    pending = list(DeckVersion.objects.filter(status=DeckVersion.Status.PENDING).values_list("pk", flat=True))
    runs = list(DeckRecheck.objects.filter(finished_at__isnull=True).values_list("pk", flat=True))
    return pending, runs


# --- the card pool ------------------------------------------------------------------------------------------


def yugioh_card_named(ref: str) -> YugiohCardRecord | Problem | None:
    """The Yu-Gi-Oh! card a name or passcode names, read as a registered deck's roles are (``decks.checking``): the
    card, the ``unknown_card`` problem (with a suggestion) when the pool has none by that name, or ``None`` when no
    Yu-Gi-Oh! card data is imported (nothing to check against).  One query, and the pool's load when it changed."""
    if not catalogue.card_count("yugioh"):
        return None
    return resolve_reference(ref, catalogue.yugioh_index())
