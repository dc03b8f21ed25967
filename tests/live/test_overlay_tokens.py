"""Overlay tokens are stored as digests: the key is shown once, when it is made, and the database never holds it;
an overlay URL with the key keeps working (tokens made before digests included), and a wrong key is refused."""

from __future__ import annotations

import hashlib
import re

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from live import selectors
from live import services as live_services
from live.models import OverlayToken
from tests.support.people import as_user

pytestmark = pytest.mark.django_db


def stored_text() -> str:
    """Every value of every overlay token row, as text."""
    return repr(list(OverlayToken.objects.values_list()))


def test_the_api_answers_the_key_once_and_the_database_holds_only_its_digest(duel, station_1, api_as, anon_api):
    made = api_as("cass").post(f"/api/v1/events/{duel.pk}/overlay-tokens/", {"label": "OBS"}, format="json")
    assert made.status_code == 201
    key = made.json()["key"]
    assert len(key) >= 32 and made.json()["prefix"] == key[:8]
    assert key not in stored_text()
    assert OverlayToken.objects.get().digest == hashlib.sha256(key.encode()).hexdigest()
    listed = api_as("cass").get(f"/api/v1/events/{duel.pk}/overlay-tokens/").json()["results"]
    assert "key" not in listed[0] and listed[0]["prefix"] == key[:8] and key not in repr(listed)
    assert anon_api.get(f"/api/v1/events/{duel.pk}/stations/stream-1/", {"token": key}).status_code == 200
    assert anon_api.get(f"/api/v1/events/{duel.pk}/stations/stream-1/", {"token": key[:-1]}).status_code == 401


def test_the_caster_page_shows_a_new_key_once_then_only_its_prefix(duel, staff_users, client):
    caster = as_user(client, staff_users["cass"])
    made = caster.post(f"/live/events/{duel.pk}/caster/tokens/", {"label": "OBS laptop"})
    assert made.status_code == 200 and "no-store" in made["Cache-Control"]
    token = OverlayToken.objects.get()
    page = made.content.decode()
    key = re.search(r"\?token=([A-Za-z0-9_-]{32,})<", page).group(1)
    assert key.startswith(token.prefix) and hashlib.sha256(key.encode()).hexdigest() == token.digest
    assert "shown once" in page and key not in stored_text()
    again = caster.get(f"/live/events/{duel.pk}/caster/").content.decode()
    assert key not in again and f"{token.prefix}…" in again
    assert key not in repr(list(caster.session.items()))  # not kept for a message on the next page either


def test_the_overlay_page_takes_the_key_and_refuses_a_wrong_or_revoked_one(duel, station_1, organiser, client):
    token, key = live_services.overlay_token_create(event=duel, label="OBS", by=organiser)
    overlay = f"/live/events/{duel.pk}/stations/stream-1/"
    assert client.get(overlay, {"token": key}).status_code == 200
    assert client.get(overlay, {"token": token.digest}).status_code == 403  # the digest is not a key
    assert client.get(overlay, {"token": token.prefix}).status_code == 403
    live_services.overlay_token_revoke(token=token, by=organiser)
    assert client.get(overlay, {"token": key}).status_code == 403


@pytest.fixture
def station_1(duel, organiser):
    return live_services.station_create(event=duel, slug="stream-1", by=organiser)


BEFORE, AFTER = ("live", "0001_initial"), ("live", "0002_overlay_token_digest")


@pytest.mark.django_db(transaction=True)
def test_a_token_made_before_digests_keeps_its_overlay_urls_working_after_the_migration(duel, organiser, client):
    live_services.station_create(event=duel, slug="stream-1", by=organiser)
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    try:
        old_apps = executor.loader.project_state([BEFORE]).apps
        old_key = "sIlV3r-0ld_t0ken-KEPT-in-0BS-f0r-a-year"
        old_apps.get_model("live", "OverlayToken").objects.create(event_id=duel.pk, key=old_key, label="OBS 2025")
        executor = MigrationExecutor(connection)
        executor.migrate([AFTER])
    finally:
        MigrationExecutor(connection).migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    with connection.cursor() as cursor:
        columns = [c.name for c in connection.introspection.get_table_description(cursor, "live_overlaytoken")]
    assert "key" not in columns and old_key not in stored_text()
    token = OverlayToken.objects.get()
    assert token.prefix == old_key[:8] and selectors.token_of(event=duel, key=old_key) == token
    overlay = f"/live/events/{duel.pk}/stations/stream-1/"
    assert client.get(overlay, {"token": old_key}).status_code == 200
    assert client.get(overlay, {"token": old_key.upper()}).status_code == 403


@pytest.mark.django_db(transaction=True)
def test_going_back_before_digests_gives_each_token_a_new_key_and_revokes_it(duel, organiser):
    made = [live_services.overlay_token_create(event=duel, label=label, by=organiser) for label in ("OBS", "Venue")]
    executor = MigrationExecutor(connection)
    try:
        executor.migrate([BEFORE])
        old = executor.loader.project_state([BEFORE]).apps.get_model("live", "OverlayToken")
        rows = list(old.objects.values_list("key", "revoked_at"))
        assert len({key for key, _ in rows}) == 2 and all(revoked for _, revoked in rows)
        assert not {key for key, _ in rows} & {key for _, key in made}
    finally:
        MigrationExecutor(connection).migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
