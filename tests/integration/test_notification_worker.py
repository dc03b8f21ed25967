"""Notifications sent by a real Celery worker, over real Redis, from real PostgreSQL: the mail arrives over SMTP at
a server in this process, the push at an HTTP push endpoint here, decrypted with the test browser's key; a push
service's failure leaves the delivery pending with its backoff, and once that is over (as the sweep finds it) the
worker sends it, once however often it is asked."""

from __future__ import annotations

import datetime
import time

import pytest
from django.utils import timezone

from notifications import push, readers
from notifications.kinds import Kind
from notifications.models import Delivery, Preference, PushSubscription
from tests.factories import PlayerFactory, RegistrationFactory
from tests.integration.conftest import start_worker
from tests.support.notifications import Browser, MailServer, PushEndpoint
from tournaments import services

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _until(check, what: str, timeout: float = 60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    pytest.fail(f"{what} not done by the worker within {timeout} s")


def test_the_worker_mails_and_pushes_and_sends_a_failed_push_again_once(tmp_path, organiser, django_user_model):
    keys = push.generate_keys()
    mail_server, endpoint = MailServer().start(), PushEndpoint().start()
    env = {
        "EMAIL_URL": f"smtp://127.0.0.1:{mail_server.port}", "VAPID_PUBLIC_KEY": keys.public,
        "VAPID_PRIVATE_KEY": keys.private, "PODIUM_SITE_URL": "http://podium.test",
    }  # fmt: skip
    process, restore = start_worker(tmp_path, env=env)
    try:
        alice = django_user_model.objects.create_user(username="alice", password="pw", email="alice@podium.test")
        bob = django_user_model.objects.create_user(username="bob", password="pw", email="bob@podium.test")
        browsers = {}
        for user, path in ((alice, "/push/alice"), (bob, "/push/bob")):
            browsers[user.username] = Browser(endpoint.base + path)
            keys_ = browsers[user.username].subscription()["keys"]
            PushSubscription.objects.create(user=user, endpoint=endpoint.base + path, **keys_)
        Preference.objects.create(user=alice, kind=Kind.ROUND_PAIRED, email=True, push=True)
        endpoint.answer("/push/bob", 503)
        event = services.event_create(
            organiser=organiser, name="Worker Night", format="deck-masters", planned_rounds=2,
            date=datetime.date(2026, 12, 4),
        )  # fmt: skip
        for name, user in (("Alice", alice), ("Bob", bob), ("Kaiba", None), ("Mai", None)):
            RegistrationFactory(event=event, player=PlayerFactory(display_name=name, user=user))

        services.round_start(event=event, by=organiser, seed=3)  # committed: its readers send to the worker

        [mail] = mail_server.wait(1, timeout=60)
        assert mail["To"] == "alice@podium.test" and mail["Subject"] == "[Podium] Worker Night: Round 1 is paired"
        pushed = _until(lambda: endpoint.to("/push/alice"), "alice's push")
        assert browsers["alice"].read(pushed[0])["title"] == "Worker Night: Round 1 is paired"
        waiting = _until(lambda: Delivery.objects.filter(user=bob, attempts=1, status="pending").first(), "bob's try")
        assert "503" in waiting.error

        # The backoff over, the sweep hands it to the worker; asked twice, it goes once.
        Delivery.objects.filter(pk=waiting.pk).update(not_before=timezone.now())
        assert readers.sweep() == 1
        readers.hand_over([waiting.pk])
        _until(lambda: Delivery.objects.filter(pk=waiting.pk, status="sent").exists(), "bob's push, tried again")
        _until(lambda: "{'busy': 1}" in process.log.read_text(), "the second run")
        assert [r["status"] for r in endpoint.to("/push/bob")] == [503, 201]
        assert browsers["bob"].read(endpoint.to("/push/bob")[-1])["kind"] == "round_paired"
        assert len(mail_server.messages) == 1 and len(endpoint.to("/push/alice")) == 1
    finally:
        restore()
        mail_server.stop()
        endpoint.stop()
