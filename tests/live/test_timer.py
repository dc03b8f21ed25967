"""The round timer and tables' extra time, through the API: who may run them, the states, the refusals."""

from __future__ import annotations

import pytest

from tests.support.live import seats_of
from tournaments import services
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db

T = "/api/v1/events/{e}/rounds/{n}/timer/"


def _post(client, event, op: str, body=None, number: int = 1):
    return client.post(T.format(e=event.pk, n=number) + (op + "/" if op else ""), body or {}, format="json")


def test_the_clock_starts_pauses_extends_and_resumes(duel, api):
    started = _post(api, duel, "start", {"minutes": 50})
    assert started.status_code == 200, started.content
    assert started.json()["state"] == "running" and started.json()["duration"] == 3000
    assert 2990 <= started.json()["remaining"] <= 3000
    paused = _post(api, duel, "pause").json()
    assert paused["state"] == "paused" and paused["deadline"] is None
    extended = _post(api, duel, "extend", {"minutes": 5}).json()
    assert extended["remaining"] == paused["remaining"] + 300 and extended["duration"] == 3300
    resumed = _post(api, duel, "resume").json()
    assert resumed["state"] == "running" and resumed["deadline"]
    read = api.get(T.format(e=duel.pk, n=1)).json()
    assert read["state"] == "running" and "extra turns" not in read["procedure"]
    assert read["procedure"].startswith("Time: the player whose turn it is finishes it, then 3 more turns")
    actions = list(AuditEntry.objects.filter(event=duel, action__startswith="timer.").values_list("action", flat=True))
    assert sorted(actions) == ["timer.extended", "timer.paused", "timer.resumed", "timer.started"]


def test_timer_operations_in_the_wrong_state_are_409s_with_their_codes(duel, api):
    assert _post(api, duel, "pause").json()["error"]["code"] == "timer_not_started"
    _post(api, duel, "start", {"minutes": 50})
    again = _post(api, duel, "start", {"minutes": 50})
    assert again.status_code == 409 and again.json()["error"]["code"] == "timer_started"
    assert _post(api, duel, "resume").json()["error"]["code"] == "timer_running"
    _post(api, duel, "pause")
    assert _post(api, duel, "pause").json()["error"]["code"] == "timer_paused"


def test_timer_operations_on_a_finished_round_are_refused_with_409_round_finished(duel, api, organiser):
    _post(api, duel, "start", {"minutes": 50})
    for table in (1, 2):
        a, b = seats_of(duel, table)
        services.pod_result_report(
            event=duel, round_number=1, table_number=table, placements={a: 1, b: 2}, by=organiser
        )
    for op, body in (("pause", None), ("extend", {"minutes": 3}), ("start", {"minutes": 50})):
        answer = _post(api, duel, op, body)
        assert answer.status_code == 409, (op, answer.content)
        assert answer.json()["error"]["code"] == "round_finished"
    services.round_start(event=duel, by=organiser, seed=4)
    assert _post(api, duel, "resume").json()["error"]["code"] == "round_finished"  # a later round has started


def test_bad_input_and_unknown_rounds_answer_4xx_in_the_error_shape(duel, api):
    assert _post(api, duel, "start", {"minutes": 0}).json()["error"]["code"] == "invalid"
    assert _post(api, duel, "start", {"minutes": "soon"}).status_code == 400
    missing = _post(api, duel, "start", {"minutes": 50}, number=7)
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "round_not_found"


def test_scorekeepers_and_judges_run_the_clock_and_casters_and_outsiders_may_not(duel, api_as, outsider_api):
    assert _post(api_as("sam"), duel, "start", {"minutes": 50}).status_code == 200
    assert _post(api_as("jo"), duel, "pause").status_code == 200
    assert _post(api_as("cass"), duel, "resume").json()["error"]["code"] == "permission_denied"
    assert _post(outsider_api, duel, "resume").status_code == 403


def test_a_judge_gives_a_table_extra_time_kept_in_its_history(duel, api, api_as):
    _post(api, duel, "start", {"minutes": 50})
    url = f"/api/v1/events/{duel.pk}/rounds/1/tables/2/extension/"
    answer = api_as("jo").post(url, {"minutes": 3, "reason": "Deck check"}, format="json")
    assert answer.status_code == 201, answer.content
    assert answer.json()["timer"]["extension"] == 180
    entry = AuditEntry.objects.get(event=duel, action="table.time_extended")
    assert (entry.subject, entry.reason, entry.actor.username) == ("Round 1, table 2", "Deck check", "jo")
    assert api_as("sam").post(url, {"minutes": 3, "reason": "x"}, format="json").status_code == 403
    assert api.post(url, {"minutes": 3, "reason": " "}, format="json").json()["error"]["code"] == "invalid"
    missing = api.post(url.replace("/tables/2/", "/tables/9/"), {"minutes": 3, "reason": "x"}, format="json")
    assert missing.json()["error"]["code"] == "table_not_found"


# --- a complete round stops its clock ----------------------------------------------------------------------------


def _finish_round_by(path: str, event, organiser, django_user_model) -> None:
    """Every table of round 1 gets its result: entered by the staff, reported and confirmed by its players, or (the
    last table) from the match a judge records on the console."""
    from games import services as game_services
    from tests.support.games import deck_masters_duel
    from tournaments.models import Player, Pod
    from tournaments.services import results

    if path == "players":
        services.event_update(event=event, by=organiser, player_reports=True)
        event.refresh_from_db()
    for table in (1, 2):
        a, b = seats_of(event, table)
        if path == "players":
            reporter, confirmer = (django_user_model.objects.create_user(username=f"p{pid}") for pid in (a, b))
            Player.objects.filter(pk=a).update(user=reporter)
            Player.objects.filter(pk=b).update(user=confirmer)
            placements = {a: 1, b: 2}
            results.result_player_report(
                event=event, round_number=1, table_number=table, placements=placements, by=reporter
            )
            results.result_respond(event=event, round_number=1, table_number=table, agrees=True, by=confirmer)
        elif path == "game" and table == 2:
            pod = Pod.objects.get(round__event=event, round__number=1, table_number=table)
            for _duel in range(2):  # a best of 3 won 2-0
                game = game_services.game_create(pod=pod, by=organiser)
                for entry in deck_masters_duel(a, b):
                    game, _ = game_services.game_event_append(
                        game=game, expected_version=game.version, type=entry.type, data=dict(entry.data), by=organiser
                    )
        else:
            services.pod_result_report(
                event=event, round_number=1, table_number=table, placements={a: 1, b: 2}, by=organiser
            )


@pytest.mark.parametrize("path", ["staff", "players", "game"])
def test_the_clock_of_a_round_whose_last_result_is_in_reads_finished_everywhere_and_is_pushed(
    duel, api, organiser, django_user_model, client, path
):
    from live.models import LiveEvent
    from tests.support.people import as_user

    _post(api, duel, "start", {"minutes": 50})
    _finish_round_by(path, duel, organiser, django_user_model)

    read = api.get(T.format(e=duel.pk, n=1)).json()
    assert (read["state"], read["deadline"], read["remaining"], read["time_up"]) == ("finished", None, None, False)
    pushed = LiveEvent.objects.filter(event=duel, kind="timer.changed").order_by("-id").first()
    assert pushed.data["table"] is None and pushed.data["timer"]["state"] == "finished"
    assert LiveEvent.objects.filter(event=duel, kind="timer.changed", data__timer__state="finished").count() == 1
    # What the venue display, the overlays and the event's live API read.
    assert api.get(f"/api/v1/events/{duel.pk}/live/").json()["timer"]["state"] == "finished"
    display = client.get(f"/live/events/{duel.pk}/display/").content.decode()
    assert 'data-state="finished"' in display and "Finished" in display
    assert 'data-state="finished"' in client.get(f"/live/events/{duel.pk}/overlays/timer/").content.decode()
    # The dashboard's clock card offers no control of a round that is over.
    card = as_user(client, organiser).get(f"/live/events/{duel.pk}/timer/", headers={"HX-Request": "true"})
    html = card.content.decode()
    assert "Every table has its result" in html
    assert "Extend" not in html and "Pause" not in html and "Resume" not in html and "Start the clock" not in html
    refused = _post(api, duel, "extend", {"minutes": 5})
    assert refused.status_code == 409 and "every table has its result" in refused.json()["error"]["message"]


def test_a_round_completed_before_its_clock_started_reads_finished_and_offers_no_start(duel, api, organiser, client):
    from tests.support.people import as_user

    for table in (1, 2):
        a, b = seats_of(duel, table)
        services.pod_result_report(
            event=duel, round_number=1, table_number=table, placements={a: 1, b: 2}, by=organiser
        )
    assert api.get(T.format(e=duel.pk, n=1)).json()["state"] == "finished"
    card = as_user(client, organiser).get(f"/live/events/{duel.pk}/timer/", headers={"HX-Request": "true"})
    assert "Start the clock" not in card.content.decode() and "Finished" in card.content.decode()


def test_the_clock_keeps_running_while_a_table_still_plays(duel, api, organiser):
    _post(api, duel, "start", {"minutes": 50})
    a, b = seats_of(duel, 1)
    services.pod_result_report(event=duel, round_number=1, table_number=1, placements={a: 1, b: 2}, by=organiser)
    assert api.get(T.format(e=duel.pk, n=1)).json()["state"] == "running"
    assert _post(api, duel, "extend", {"minutes": 5}).status_code == 200
