"""The organiser's archetypes page: every registered deck with the archetype Podium gives it and the organiser's name
for it, which replaces Podium's in the meta report.

Only those who manage the event's decks (its organisers) open it or name a deck; an empty name gives the deck
Podium's name again; a name that cannot be comes back as an error at its field and changes nothing.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from decks.models import DeckVersion
from decks.services import event_decklists_publish
from leagues.models import ArchetypeName
from tests.factories import EventFactory, PlayerFactory, RegistrationFactory
from tests.support.leagues import committed, played_event, players
from tests.support.pages import text
from tests.support.played_event import signed_in
from tournaments.models import AuditEntry
from tournaments.services import staff as staff_services

pytestmark = pytest.mark.django_db

DECKS = ("Dark Magician", "Blue-Eyes White Dragon", "Dark Magician")


@pytest.fixture
def night(organiser):
    """A played Deck Masters night of four; the first three registered a deck, the last one none."""
    event = played_event(organiser, field=players(4), rounds=2)
    for registration, master in zip(event.registrations.order_by("player__display_name"), DECKS, strict=False):
        DeckVersion.objects.create(registration=registration, number=1, roles={"deck_master": master}, decklist="")
    return event


@pytest.fixture
def first(night):
    """L00's registration: a Dark Magician deck."""
    return night.registrations.get(player__display_name="L00")


def page_of(event) -> str:
    return reverse("leagues:archetypes", args=[event.pk])


def name_deck(client, registration, name: str):
    url = reverse("leagues:archetype-name", args=[registration.event_id, registration.pk])
    return client.post(url, {f"deck-{registration.pk}-name": name})


def row(html: str, registration) -> str:
    return re.search(rf'<tr id="deck-{registration.pk}"[^>]*>.*?</tr>', html, re.S).group(0)


def test_an_anonymous_visitor_is_asked_to_sign_in(night, first):
    client = Client()
    for answer in (client.get(page_of(night)), name_deck(client, first, "Toon Magician")):
        assert answer.status_code == 302 and answer["Location"].startswith(reverse("login") + "?next=")
    assert not ArchetypeName.objects.exists()


def test_only_those_who_manage_the_events_decks_open_the_page_or_name_a_deck(
    night, first, organiser, outsider, django_user_model
):
    other_organiser = django_user_model.objects.create_user(username="other-organiser", password="pw")
    EventFactory(organiser=other_organiser, name="Their own night")
    player = django_user_model.objects.create_user(username="l00", password="pw")
    first.player.user = player
    first.player.save(update_fields=["user"])
    for username, role in (("jo", "judge"), ("cora", "co_organiser")):
        django_user_model.objects.create_user(username=username, password="pw")
        staff_services.staff_add(event=night, username=username, role=role, by=organiser)
    judge, co_organiser = django_user_model.objects.get(username="jo"), django_user_model.objects.get(username="cora")
    for refused in (outsider, other_organiser, player, judge):
        client = signed_in(refused)
        assert client.get(page_of(night)).status_code == 403, refused
        assert name_deck(client, first, "Toon Magician").status_code == 403, refused
        assert (
            f'href="{page_of(night)}"'
            not in client.get(reverse("leagues:event-meta", args=[night.pk])).content.decode()
        )
    assert not ArchetypeName.objects.exists() and not AuditEntry.objects.filter(action="archetype.named").exists()
    judges_dashboard = signed_in(judge).get(reverse("dashboard:event-detail", args=[night.pk])).content.decode()
    assert f'href="{page_of(night)}"' not in judges_dashboard
    assert signed_in(co_organiser).get(page_of(night)).status_code == 200


def test_the_organiser_reaches_the_page_from_the_dashboard_and_the_meta_report(night, organiser):
    client = signed_in(organiser)
    dashboard = client.get(reverse("dashboard:event-detail", args=[night.pk])).content.decode()
    assert f'<a href="{page_of(night)}">Archetypes</a>' in dashboard
    meta = client.get(reverse("leagues:event-meta", args=[night.pk])).content.decode()
    assert f'href="{page_of(night)}">Name the archetypes</a>' in meta
    assert (
        f'href="{page_of(night)}"' not in Client().get(reverse("leagues:event-meta", args=[night.pk])).content.decode()
    )
    html = client.get(page_of(night)).content.decode()
    assert f'<a href="{page_of(night)}" aria-current="page">Archetypes</a>' in html


def test_the_page_lists_each_deck_with_podiums_name_before_the_lists_are_published(night, first, organiser):
    answer = signed_in(organiser).get(page_of(night))
    assert answer.status_code == 200
    html = answer.content.decode()
    assert html.count('<tr id="deck-') == 3 and "L03" not in html  # L03 registered no deck
    assert "Dark Magician" in row(html, first) and "Renamed" not in html
    assert "Blue-Eyes White Dragon" in row(html, night.registrations.get(player__display_name="L01"))
    label = f'<label class="visually-hidden" for="id_deck-{first.pk}-name">Archetype of L00\'s deck</label>'
    assert label in html
    assert "While the decklists are hidden, the meta report names no deck." in text(answer)


def test_the_organiser_names_a_deck_and_the_meta_report_shows_the_name_once_the_lists_are_published(
    night, first, organiser
):
    client = signed_in(organiser)
    answer = name_deck(client, first, "  Toon   Magician ")
    assert answer.status_code == 302 and answer["Location"] == page_of(night) + f"#deck-{first.pk}"
    page = client.get(page_of(night))
    assert "L00's deck is “Toon Magician” in the meta report once the decklists are published." in text(page)
    named = row(page.content.decode(), first)
    assert 'class="renamed"' in named and "Renamed" in named and 'value="Toon Magician"' in named
    assert "shown as “Toon Magician”" in named
    assert "Use Podium's name" in named and "Dark Magician" in named  # Podium's name stays in view
    assert "1 renamed" in text(page)
    assert ArchetypeName.objects.get(registration=first).name == "Toon Magician"
    entry = AuditEntry.objects.get(event=night, action="archetype.named")
    assert (entry.actor, entry.subject) == (organiser, f"L00 (#{first.player_id})")
    assert (entry.before, entry.after) == ({"archetype": None}, {"archetype": "Toon Magician"})
    trail = text(client.get(reverse("dashboard:event-audit", args=[night.pk])))
    assert "Archetype named · L00" in trail and "archetype: none → Toon Magician" in trail

    meta_url = reverse("leagues:event-meta", args=[night.pk])
    assert "Toon Magician" not in Client().get(meta_url).content.decode()  # the lists are still hidden
    with committed():
        event_decklists_publish(event=night, by=organiser)
    meta = Client().get(meta_url).content.decode()
    assert "Toon Magician" in meta and "Blue-Eyes White Dragon" in meta
    rows = {r["archetype"]: r["players"] for r in Client().get(f"/api/v1/events/{night.pk}/meta/").json()["rows"]}
    assert rows["Toon Magician"] == 1 and rows["Dark Magician"] == 1 and rows["Blue-Eyes White Dragon"] == 1


def test_an_empty_name_gives_the_deck_podiums_name_again(night, first, organiser):
    client = signed_in(organiser)
    name_deck(client, first, "Toon Magician")
    answer = name_deck(client, first, "")  # what the row's "Use Podium's name" button posts
    assert answer.status_code == 302
    page = client.get(page_of(night))
    assert "L00's deck has Podium's name again in the meta report once the decklists are published." in text(page)
    assert "Renamed" not in page.content.decode() and not ArchetypeName.objects.exists()
    entries = AuditEntry.objects.filter(event=night, action="archetype.named").order_by("id")
    assert [e.after for e in entries] == [{"archetype": "Toon Magician"}, {"archetype": None}]


def test_a_name_over_100_characters_is_an_error_at_its_field_and_changes_nothing(night, first, organiser):
    client = signed_in(organiser)
    name_deck(client, first, "Toon Magician")
    answer = name_deck(client, first, "X" * 101)
    assert answer.status_code == 400
    named = row(answer.content.decode(), first)
    assert 'aria-invalid="true"' in named and f'id="id_deck-{first.pk}-name_error"' in named
    assert "at most 100 characters" in named and 'value="' + "X" * 101 + '"' in named  # what was typed, kept
    assert "The name of L00's deck is not saved: see its row" in text(answer)  # above, in case the row is far down
    assert ArchetypeName.objects.get(registration=first).name == "Toon Magician"
    assert AuditEntry.objects.filter(action="archetype.named").count() == 1


def test_a_name_of_100_characters_is_accepted(night, first, organiser):
    answer = name_deck(signed_in(organiser), first, "Y" * 100)
    assert answer.status_code == 302 and ArchetypeName.objects.get(registration=first).name == "Y" * 100


def test_a_registration_of_another_event_is_not_found(night, organiser):
    elsewhere = RegistrationFactory(event=EventFactory(organiser=organiser), player=PlayerFactory())
    answer = signed_in(organiser).post(
        reverse("leagues:archetype-name", args=[night.pk, elsewhere.pk]), {f"deck-{elsewhere.pk}-name": "Toon"}
    )
    assert answer.status_code == 404 and not ArchetypeName.objects.exists()


def test_the_page_reads_the_same_number_of_queries_for_more_decks_and_names(
    night, organiser, django_assert_max_num_queries, django_assert_num_queries
):
    client = signed_in(organiser)
    with django_assert_max_num_queries(12) as captured:
        assert client.get(page_of(night)).status_code == 200
    for number in range(6):
        registration = RegistrationFactory(event=night, player=PlayerFactory(display_name=f"N{number}"))
        DeckVersion.objects.create(registration=registration, number=1, roles={"deck_master": "Kuriboh"}, decklist="")
        DeckVersion.objects.create(registration=registration, number=2, roles={"deck_master": "Jinzo"}, decklist="")
        ArchetypeName.objects.create(registration=registration, name=f"Named {number}", by=organiser)
    with django_assert_num_queries(len(captured)):
        html = client.get(page_of(night)).content.decode()
    assert html.count('<tr id="deck-') == 9 and "Jinzo" in html and "Kuriboh" not in html
