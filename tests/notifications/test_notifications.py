"""Notifications by e-mail and Web Push, end to end: the domain events of the real services become deliveries, and
the deliveries arrive over SMTP at a real mail server and as encrypted pushes at a real HTTP push endpoint, both in
this process (``tests/support/notifications.py``); the pushes are decrypted with the test browser's own key."""

from __future__ import annotations

import datetime
import re

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import services as account_services
from floor import services as floor_services
from live import services as live_services
from notifications import messages, push, readers, services, tasks
from notifications.kinds import Kind
from notifications.language import language_for
from notifications.models import Delivery, Preference, PushSubscription
from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.notifications import Browser, MailServer, PushEndpoint, body_of, free_port
from tests.support.people import ROLES
from tournaments import services as tournament_services
from tournaments.models import Registration, Seat
from tournaments.services import registrations, results, staff

pytestmark = pytest.mark.django_db

KEYS = push.generate_keys()
SITE = "http://podium.test"


@pytest.fixture(scope="module")
def mail_server():
    server = MailServer().start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def endpoint():
    service = PushEndpoint().start()
    yield service
    service.stop()


@pytest.fixture(autouse=True)
def wired(mail_server, endpoint, django_mail_patch_dns):
    mail_server.clear()
    endpoint.received.clear()
    with override_settings(
        MAILERS={"default": mail_server.mailer()}, VAPID_PUBLIC_KEY=KEYS.public, VAPID_PRIVATE_KEY=KEYS.private,
        VAPID_SUBJECT="mailto:td@podium.test", PODIUM_SITE_URL=SITE, DEBUG=False,
        PODIUM_PUSH_LOCAL_ENDPOINTS=True,
    ):  # fmt: skip
        yield


@pytest.fixture
def people(django_user_model):
    return {
        name: django_user_model.objects.create_user(username=name, password="pw", email=f"{name}@podium.test")
        for name in ("alice", "bob")
    }


@pytest.fixture
def duel(organiser, people):
    """Deck Masters, four players (alice and bob have accounts), player reports on, not paired yet."""
    event = tournament_services.event_create(
        organiser=organiser, name="Duel Night", format="deck-masters", planned_rounds=3,
        date=datetime.date(2026, 12, 4),
    )  # fmt: skip
    tournament_services.event_update(event=event, by=organiser, player_reports=True)
    for name, user in (("Alice", people["alice"]), ("Bob", people["bob"]), ("Kaiba", None), ("Mai", None)):
        RegistrationFactory(event=event, player=PlayerFactory(display_name=name, user=user))
    return event


def signed_in(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def subscribe(user, endpoint: PushEndpoint, path: str) -> Browser:
    browser = Browser(endpoint.base + path)
    assert (
        signed_in(user).post("/api/v1/me/push-subscriptions/", browser.subscription(), format="json").status_code == 201
    )
    return browser


def choose(user, kind: str, **channels: bool) -> None:
    answer = signed_in(user).put("/api/v1/me/notifications/", {"kinds": [{"kind": kind, **channels}]}, format="json")
    assert answer.status_code == 200, answer.content


def opponents_of(event, user) -> tuple[int, list[str]]:
    seat = Seat.objects.select_related("pod").get(round__event=event, player__user=user)
    names = [s.player.display_name for s in seat.pod.seats.all() if s.player_id != seat.player_id]
    return seat.pod.table_number, names


def test_a_paired_round_reaches_each_player_by_push_and_by_the_mail_they_chose(
    duel, organiser, people, mail_server, endpoint, django_capture_on_commit_callbacks
):
    browser = subscribe(people["alice"], endpoint, "/push/alice")
    choose(people["alice"], Kind.ROUND_PAIRED, email=True)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.round_start(event=duel, by=organiser, seed=3)

    table, opponents = opponents_of(duel, people["alice"])
    [mail] = mail_server.wait(1)
    assert mail["To"] == "alice@podium.test"
    assert mail["Subject"] == "[Podium] Duel Night: Round 1 is paired"
    assert f"Table {table}, against {opponents[0]}." in body_of(mail, "plain")
    assert f"Table {table}, against {opponents[0]}." in body_of(mail, "html")
    [received] = endpoint.to("/push/alice")
    message = browser.read(received)
    assert message["title"] == "Duel Night: Round 1 is paired"
    assert message["body"] == f"Table {table}, against {opponents[0]}."
    assert message["url"] == SITE + "/me/" and message["kind"] == "round_paired"
    vapid = received["headers"]["authorization"]
    assert vapid.startswith("vapid t=") and f"k={KEYS.public}" in vapid
    # Bob chose nothing: round pairings are not mailed by default, and he subscribed no browser.
    assert set(Delivery.objects.values_list("user__username", "channel", "status")) == {
        ("alice", "email", "sent"), ("alice", "push", "sent"),
    }  # fmt: skip


def test_asking_twice_is_one_message_and_a_second_run_of_the_task_sends_nothing(duel, people, mail_server):
    ask = services.Ask(people["bob"].pk, f"event:{duel.pk}", {"event_id": duel.pk})
    first = services.notifications_create(kind=Kind.WAITING_LIST_PROMOTED, asks=[ask])
    again = services.notifications_create(kind=Kind.WAITING_LIST_PROMOTED, asks=[ask, ask])
    assert first == again and len(first) == 1
    assert tasks.deliver.apply(args=[first]).get() == {"sent": 1}
    assert tasks.deliver.apply(args=[first + first]).get() == {"busy": 2}
    assert len(mail_server.wait(1)) == 1
    # Asked again once sent: nothing new is pending, nothing is sent.
    assert services.notifications_create(kind=Kind.WAITING_LIST_PROMOTED, asks=[ask]) == []


def test_a_burst_of_changes_before_the_send_makes_one_message_written_from_the_latest(
    duel, organiser, people, endpoint
):
    """A round paired and at once swapped: alice's message names the table she ends up at, once."""
    browser = subscribe(people["alice"], endpoint, "/push/burst")
    round_ = tournament_services.round_start(event=duel, by=organiser, seed=3)
    ask = services.Ask(people["alice"].pk, f"round:{round_.pk}", {"event_id": duel.pk, "round_id": round_.pk})
    ids = services.notifications_create(kind=Kind.ROUND_PAIRED, asks=[ask])
    alice = Seat.objects.get(round=round_, player__user=people["alice"])
    other = Seat.objects.filter(round=round_).exclude(pod=alice.pod).first()
    tournament_services.round_swap(event=duel, round_number=1, player_a=alice.player_id, player_b=other.player_id,
                                   by=organiser)  # fmt: skip
    assert services.notifications_create(kind=Kind.ROUND_PAIRED, asks=[ask]) == ids
    tasks.deliver.apply(args=[ids])
    [received] = endpoint.to("/push/burst")
    table, _opponents = opponents_of(duel, people["alice"])
    assert browser.read(received)["body"].startswith(f"Table {table}, against")


def test_a_push_service_failing_is_tried_again_with_a_backoff_and_a_gone_subscription_is_deleted(
    duel, organiser, people, endpoint, django_capture_on_commit_callbacks
):
    flaky = subscribe(people["alice"], endpoint, "/push/flaky")
    subscribe(people["bob"], endpoint, "/push/gone")
    endpoint.answer("/push/flaky", 500)
    endpoint.answer("/push/gone", 410)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.round_start(event=duel, by=organiser, seed=3)

    waiting = Delivery.objects.get(user=people["alice"])
    assert (waiting.status, waiting.attempts) == ("pending", 1)
    assert waiting.not_before > timezone.now() + datetime.timedelta(seconds=20) and "500" in waiting.error
    assert not PushSubscription.objects.filter(user=people["bob"]).exists()
    assert Delivery.objects.get(user=people["bob"]).status == "skipped"
    assert readers.sweep() == 0  # not due yet

    Delivery.objects.filter(pk=waiting.pk).update(not_before=timezone.now())
    assert readers.sweep() == 1
    waiting.refresh_from_db()
    assert (waiting.status, waiting.attempts) == ("sent", 2)
    assert [r["status"] for r in endpoint.to("/push/flaky")] == [500, 201]
    assert flaky.read(endpoint.to("/push/flaky")[-1])["kind"] == "round_paired"


def test_a_mail_server_that_is_down_never_fails_the_request_and_the_mail_goes_once_it_is_back(
    duel, organiser, people, mail_server, django_capture_on_commit_callbacks
):
    duel.registrations.update(checked_in=False)
    down = {"BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": free_port(), "timeout": 2}}  # fmt: skip
    with override_settings(MAILERS={"default": down}), django_capture_on_commit_callbacks(execute=True):
        answer = signed_in(organiser).patch(f"/api/v1/events/{duel.pk}/", {"check_in_open": True}, format="json")
    assert answer.status_code == 200
    waiting = Delivery.objects.filter(kind=Kind.CHECK_IN_OPEN)
    assert sorted(d.user.username for d in waiting) == ["alice", "bob"]  # check-in is mailed by default
    assert {d.status for d in waiting} == {"pending"} and all(d.error for d in waiting)
    # The request waited for one refusal: the mail server failed once, the next mail was left for later untried.
    assert sum("not tried" in d.error for d in waiting) == 1

    waiting.update(not_before=timezone.now())
    assert readers.sweep() == 2
    mails = mail_server.wait(2)
    assert {m["Subject"] for m in mails} == {"[Podium] Duel Night: check-in is open"}


def test_a_player_who_turned_a_kind_off_gets_nothing_of_it(
    duel, organiser, people, mail_server, endpoint, django_capture_on_commit_callbacks
):
    subscribe(people["alice"], endpoint, "/push/off")
    choose(people["alice"], Kind.ROUND_PAIRED, push=False)
    choose(people["bob"], Kind.CHECK_IN_OPEN, email=False)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.round_start(event=duel, by=organiser, seed=3)
    assert not Delivery.objects.exists() and not endpoint.received
    # Turned off after it was asked: skipped when its turn comes.
    ids = services.notifications_create(
        kind=Kind.WAITING_LIST_PROMOTED, asks=[services.Ask(people["alice"].pk, "event:x", {"event_id": duel.pk})]
    )
    choose(people["alice"], Kind.WAITING_LIST_PROMOTED, email=False)
    tasks.deliver.apply(args=[ids])
    assert Delivery.objects.get(pk__in=ids, channel="email").status == "skipped"
    assert not mail_server.messages


def test_every_mail_has_a_one_click_unsubscribe_link_that_needs_no_sign_in(duel, organiser, people, mail_server):
    ask = services.Ask(people["bob"].pk, f"event:{duel.pk}", {"event_id": duel.pk})
    tasks.deliver.apply(args=[services.notifications_create(kind=Kind.WAITING_LIST_PROMOTED, asks=[ask])])
    [mail] = mail_server.wait(1)
    link = re.search(r"http://podium\.test(/notifications/unsubscribe/[^/\s]+/)", body_of(mail, "plain")).group(1)
    assert mail["List-Unsubscribe"].strip() == f"<{SITE}{link}>"  # on a line of its own, whole
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert f'href="{SITE}{link}"' in body_of(mail, "html")

    anyone = APIClient(enforce_csrf_checks=True)

    def by_email() -> bool:
        chosen = Preference.objects.filter(user=people["bob"], kind=Kind.WAITING_LIST_PROMOTED).first()
        return chosen.email if chosen else True

    # Opening the link (a mail scanner, a link preview, the player) asks and changes nothing.
    assert by_email() is True
    for opened in (anyone.get(link), anyone.head(link)):
        assert opened.status_code == 200 and by_email() is True
    assert "Stop the e-mails for" in anyone.get(link).text
    page = anyone.post(link)  # the page's one button, without a session or a CSRF token
    assert page.status_code == 200 and "You will no longer get e-mails for" in page.text
    assert by_email() is False
    assert anyone.post(link, {"again": "1"}).status_code == 200 and by_email() is True
    # A mail client's one-click unsubscribe (RFC 8058): a POST without a session or a CSRF token.
    assert anyone.post(link, {"List-Unsubscribe": "One-Click"}).status_code == 200 and by_email() is False
    assert anyone.get(link[:-6] + "xxxxx/").status_code == 400
    assert anyone.get("/notifications/unsubscribe/not-a-token/").status_code == 400
    nobody = messages.unsubscribe_token(user_id=10**9, kind=Kind.CHECK_IN_OPEN)
    assert anyone.get(f"/notifications/unsubscribe/{nobody}/").status_code == 400


def test_the_mail_and_the_push_are_written_in_the_recipients_language(duel, people, mail_server, endpoint):
    """Bob chose Spanish on his account: his mail and his push are rendered with Spanish switched on."""
    assert language_for(people["bob"]) == settings.LANGUAGE_CODE
    account_services.account_language_set(user=people["bob"], language="es")
    people["bob"].refresh_from_db()
    assert language_for(people["bob"]) == "es"
    browser = subscribe(people["bob"], endpoint, "/push/es")
    ask = services.Ask(people["bob"].pk, f"event:{duel.pk}", {"event_id": duel.pk})
    tasks.deliver.apply(args=[services.notifications_create(kind=Kind.WAITING_LIST_PROMOTED, asks=[ask])])
    [mail] = mail_server.wait(1)
    assert mail["Content-Language"] == "es"
    assert '<html lang="es">' in body_of(mail, "html")
    assert browser.read(endpoint.to("/push/es")[0])["lang"] == "es"


def test_each_kind_comes_from_its_domain_event(
    duel, organiser, people, endpoint, django_user_model, django_capture_on_commit_callbacks
):
    """Reports and disputes reach the table's other player, a claimed judge call the table, the round's last
    minutes every player still playing, a freed place the player promoted."""
    alice, bob = subscribe(people["alice"], endpoint, "/push/a"), subscribe(people["bob"], endpoint, "/push/b")
    duel.registrations.filter(player__user__isnull=True).delete()  # alice and bob at one table
    judge = django_user_model.objects.create_user(username="jo", password="pw")
    staff.staff_add(event=duel, username="jo", role=ROLES["jo"], by=organiser)

    def last(browser: Browser, path: str) -> dict:
        return browser.read(endpoint.to(path)[-1])

    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.round_start(event=duel, by=organiser, seed=3)
    a_seat = Seat.objects.get(player__user=people["alice"])
    b_seat = Seat.objects.get(player__user=people["bob"])
    with django_capture_on_commit_callbacks(execute=True):
        results.result_player_report(
            event=duel, round_number=1, table_number=1, by=people["alice"],
            placements={a_seat.player_id: 1, b_seat.player_id: 2},
        )  # fmt: skip
    assert last(bob, "/push/b")["title"] == "Duel Night: confirm your result"
    with django_capture_on_commit_callbacks(execute=True):
        results.result_respond(event=duel, round_number=1, table_number=1, agrees=False, by=people["bob"])
    assert last(alice, "/push/a")["body"] == "Round 1, table 1: the result is disputed. A judge will settle it."

    with django_capture_on_commit_callbacks(execute=True):
        call = floor_services.judge_call_open(event=duel, by=people["alice"], table=1)
        floor_services.judge_call_claim(call=call, by=judge)
    assert last(bob, "/push/b")["body"] == "A judge is on the way to table 1."

    live_services.timer_start(
        event=duel, round_number=1, minutes=settings.PODIUM_ROUND_ENDING_MINUTES + 1, by=organiser
    )
    readers.sweep()
    assert not [r for r in endpoint.received if "ends in" in str(r)]  # not in its last minutes yet
    with override_settings(PODIUM_ROUND_ENDING_MINUTES=settings.PODIUM_ROUND_ENDING_MINUTES + 2):
        readers.sweep()
        readers.sweep()  # once per round and table
    ending = [r for r in endpoint.to("/push/a") if alice.read(r)["kind"] == "round_ending"]
    assert len(ending) == 1 and alice.read(ending[0])["body"] == "Round 1 ends in 7 minutes (table 1)."

    full = tournament_services.event_create(
        organiser=organiser, name="Full House", format="deck-masters", planned_rounds=3,
        date=datetime.date(2026, 12, 11),
    )  # fmt: skip
    tournament_services.event_update(event=full, by=organiser, registration_open=True, capacity=1)
    with django_capture_on_commit_callbacks(execute=True):
        mine = registrations.registration_self_register(event=full, by=people["alice"])
        waiting = registrations.registration_self_register(event=full, by=people["bob"])
        assert waiting.status == Registration.Status.WAITLISTED
        registrations.registration_withdraw(registration=mine, by=people["alice"])
    assert last(bob, "/push/b")["title"] == "Full House: you have a place"
    assert Delivery.objects.filter(kind=Kind.WAITING_LIST_PROMOTED, user=people["bob"], channel="email").exists()


def test_a_staged_round_is_announced_when_it_is_published(
    duel, organiser, people, endpoint, django_capture_on_commit_callbacks
):
    subscribe(people["alice"], endpoint, "/push/staged")
    tournament_services.event_update(event=duel, by=organiser, stage_pairings=True)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.round_start(event=duel, by=organiser, seed=3)
    assert not endpoint.received
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.round_publish(event=duel, round_number=1, by=organiser)
    assert len(endpoint.to("/push/staged")) == 1


def test_the_api_reads_and_changes_the_choices_and_keeps_push_subscriptions(people, endpoint):
    alice = signed_in(people["alice"])
    found = alice.get("/api/v1/me/notifications/").json()
    assert found["vapid_public_key"] == KEYS.public and found["push_subscriptions"] == 0
    defaults = {k["kind"]: (k["email"], k["push"]) for k in found["kinds"]}
    assert list(defaults) == list(Kind.values)
    assert defaults["check_in_open"] == (True, True) and defaults["round_paired"] == (False, True)

    changed = alice.put("/api/v1/me/notifications/", {"kinds": [{"kind": "round_ending", "push": False}]},
                        format="json").json()  # fmt: skip
    assert {k["kind"]: (k["email"], k["push"]) for k in changed["kinds"]}["round_ending"] == (False, False)
    bad = alice.put("/api/v1/me/notifications/", {"kinds": [{"kind": "lunch_ready"}]}, format="json")
    assert bad.status_code == 400 and "kinds" in bad.json()["error"]["fields"]

    browser = Browser(endpoint.base + "/push/api")
    assert alice.post("/api/v1/me/push-subscriptions/", browser.subscription(), format="json").json()[
        "push_subscriptions"] == 1  # fmt: skip
    with override_settings(PODIUM_PUSH_LOCAL_ENDPOINTS=False):  # the server never posts into its own network
        for inside in (browser.endpoint, "https://127.0.0.1/push/x", "https://localhost/push/x", "https://10.0.0.7/x"):
            local = {**browser.subscription(), "endpoint": inside}
            refused = alice.post("/api/v1/me/push-subscriptions/", local, format="json")
            assert refused.status_code == 400 and "endpoint" in refused.json()["error"]["fields"]
        public = {**browser.subscription(), "endpoint": "https://fcm.googleapis.com/fcm/send/abc"}
        assert alice.post("/api/v1/me/push-subscriptions/", public, format="json").status_code == 201
    PushSubscription.objects.filter(endpoint__startswith="https://fcm").delete()
    forged = {**browser.subscription(), "keys": {"p256dh": "abc", "auth": "def"}}
    assert alice.post("/api/v1/me/push-subscriptions/", forged, format="json").status_code == 400
    gone = alice.delete("/api/v1/me/push-subscriptions/", {"endpoint": browser.endpoint}, format="json")
    assert gone.status_code == 204 and not PushSubscription.objects.exists()
    assert APIClient().get("/api/v1/me/notifications/").status_code == 401


def test_the_settings_page_is_linked_from_me_and_saves_the_choices(client, people):
    client.force_login(people["alice"])
    assert 'href="/me/notifications/"' in client.get("/me/").text
    page = client.get("/me/notifications/")
    assert page.status_code == 200 and "Round paired: your table and opponents" in page.text
    assert f'data-vapid-key="{KEYS.public}"' in page.text
    saved = client.post("/me/notifications/", {"round_paired__email": "on", "round_paired__push": "on"}, follow=True)
    assert "Your notification choices are saved." in saved.text
    choices = {p.kind: (p.email, p.push) for p in Preference.objects.filter(user=people["alice"])}
    assert choices["round_paired"] == (True, True) and choices["check_in_open"] == (False, False)


def test_vapid_keys_come_from_the_command_or_in_debug_from_a_file_it_keeps(tmp_path, capsys):
    call_command("vapid_keys")
    printed = dict(line.split("=", 1) for line in capsys.readouterr().out.split())
    assert len(printed["VAPID_PUBLIC_KEY"]) == 87 and len(printed["VAPID_PRIVATE_KEY"]) == 43
    with override_settings(VAPID_PUBLIC_KEY="", VAPID_PRIVATE_KEY="", DEBUG=True, VAR_DIR=tmp_path):
        made = push.keys()
        assert made is not None and push.keys() == made and (tmp_path / "vapid.json").exists()
    with override_settings(VAPID_PUBLIC_KEY="", VAPID_PRIVATE_KEY="", DEBUG=False):
        assert push.keys() is None and push.public_key() == ""
