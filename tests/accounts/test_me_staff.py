"""``/me/`` of someone who works at events: their events' dashboards, with their role, one click away."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.services import staff

pytestmark = pytest.mark.django_db


def event(organiser, name, day):
    return services.event_create(
        organiser=organiser, name=name, format="mintayn-master", planned_rounds=3, date=datetime.date(2026, 12, day)
    )


def test_staff_and_organisers_find_the_events_they_work_at_with_their_role(client, organiser, django_user_model):
    judge = django_user_model.objects.create_user(username="jo", password="pw")
    event(organiser, "Friday Duels", 4)
    second, done = event(organiser, "Saturday Duels", 5), event(organiser, "Old Duels", 1)
    staff.staff_add(event=second, username="jo", role="judge", by=organiser)
    staff.staff_add(event=done, username="jo", role="scorekeeper", by=organiser)
    done.status = done.Status.FINISHED
    done.save(update_fields=["status"])

    client.force_login(judge)
    page = client.get(reverse("accounts:me")).content.decode()
    assert "Running and working at" in page
    assert reverse("dashboard:event-detail", args=[second.pk]) in page and "Judge" in page
    assert "Friday Duels" not in page and "Old Duels" not in page  # not theirs; finished

    client.force_login(organiser)
    page = client.get(reverse("accounts:me")).content.decode()
    assert page.index("Friday Duels") < page.index("Saturday Duels") and "Organiser" in page


def test_a_plain_player_sees_no_such_section(client, django_user_model):
    client.force_login(django_user_model.objects.create_user(username="pat", password="pw"))
    assert "Running and working at" not in client.get(reverse("accounts:me")).content.decode()
