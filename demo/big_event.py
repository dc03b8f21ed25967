"""The demo's big event (``python manage.py demo`` calls :func:`big_event_demo`): a two-day Regional, mid-way.

"Demo · Battle City Regionals" is a Deck Masters event of 24 players run the way a big event is:

* **Two phases.** Day 1 is 3 Swiss rounds; players on 6 match points or more (two wins) go on to Day 2's 2
  rounds; then a planned top 6, whose seeds 1 and 2 get byes into the semi-finals.
* **Pre-assigned byes.** Two qualified players have a bye in round 1.
* **Staged pairings.** Each round is the staff's to review until they publish it.
* **The floor.** The demo's judge answers calls at tables 1-4; in round 1 a player called a judge (claimed and
  resolved with extra time), and two tables drawn at random with a recorded seed were deck-checked: one fine, the
  other with worn sleeves replaced at the table (4 minutes added to its clock).

The demo leaves it with round 1 played and round 2 paired but **staged**: the organiser's dashboard shows the
round to review and publish.  From there the organiser runs it on: round 2 published, Day 1's last round, the
advance to Day 2, Day 2, the cut with its byes, the final (``tests/browser/test_big_event.py`` does exactly that,
on desktop and phone).  Everything goes through the services the dashboard and the API use.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence

from demo.people import enter, self_register
from floor import services as floor_services
from tournaments import services
from tournaments.models import Event, Registration
from tournaments.services import phases as phase_services
from tournaments.services import registrations as registration_services
from tournaments.services import staff as staff_services
from tournaments.standings.phases import PhasePlan

NAME = "Demo · Battle City Regionals"
PLAYERS = 24
#: Day 1: 3 rounds, 6 points or more (two wins) go on; Day 2: 2 rounds; then a top 6 (seeds 1-2 get byes).
PLAN = (PhasePlan(name="Day 1", rounds=3, advance_points=6), PhasePlan(name="Day 2", rounds=2))
CUT = 6
#: Qualified players with a bye in round 1 (their names in the demo's list of players).
QUALIFIED = ("Seto Kaiba", "Yugi Muto")
#: The tables the demo's judge answers.
JUDGE_TABLES = (1, 4)
DECK_CHECK_SEED = 2024
#: What round 1's two deck checks found: (outcome, note, extra minutes for the table).
DECK_CHECKS = (
    ("ok", "Deck matches the registered list.", None),
    ("problem", "Two sleeves worn at the corners: replaced at the table, no penalty.", 4),
)


def big_event_demo(
    *, organiser, player_user, judge_username: str, names: Sequence[str], rng: random.Random, today: datetime.date
) -> tuple[Event, str]:
    """Create the big event (nothing when it is there: returns it and says so) and a line saying what it holds."""
    existing = Event.objects.filter(name=NAME, organiser=organiser).first()
    if existing is not None:
        return existing, f"  {NAME}: already there"
    event = services.event_create(
        organiser=organiser, name=NAME, format="deck-masters", planned_rounds=5, date=today,
        venue="Kaiba Dome", tiebreakers=Event.Tiebreakers.POKEMON, time_zone="America/Los_Angeles", paper="letter",
    )  # fmt: skip
    phase_services.event_phases_set(event=event, by=organiser, phases=PLAN)
    event = services.event_update(event=event, by=organiser, stage_pairings=True, planned_cut_size=CUT)
    staff_services.staff_add(event=event, username=judge_username, role="judge", by=organiser)
    for name in list(names)[: PLAYERS - 1]:
        enter(event=event, by=organiser, checked_in=True, display_name=name, external_id=f"demo-{name}")
    self_register(event=event, organiser=organiser, player_user=player_user)
    for registration in Registration.objects.filter(event=event, player__display_name__in=QUALIFIED):
        registration_services.bye_assign(registration=registration, round_number=1, by=organiser)
    floor_services.judge_assign(
        event=event, by=organiser, judge=judge_username, first_table=JUDGE_TABLES[0], last_table=JUDGE_TABLES[1]
    )

    judge = staff_user(event, judge_username)
    round_ = services.round_start(event=event, by=organiser, seed=rng.randrange(2**62))
    services.round_publish(event=event, round_number=1, by=organiser)
    call = floor_services.judge_call_open(
        event=event, by=organiser, table=1, reason="A ruling on a Deck Master's Ability"
    )
    call = floor_services.judge_call_claim(call=call, by=judge)
    floor_services.judge_call_resolve(call=call, by=judge, note="Explained the Ability's timing.", minutes=3)
    checks, _draw = floor_services.deck_checks_pick(event=event, by=judge, count=2, seed=DECK_CHECK_SEED)
    for check, (outcome, note, minutes) in zip(checks, DECK_CHECKS, strict=True):
        check = floor_services.deck_check_start(check=check, by=judge)
        floor_services.deck_check_finish(check=check, by=judge, outcome=outcome, note=note, minutes=minutes)
    for pod in round_.pods.filter(is_bye=False).prefetch_related("seats"):
        players = [s.player_id for s in pod.seats.all()]
        rng.shuffle(players)
        services.pod_result_report(
            event=event, round_number=1, table_number=pod.table_number,
            placements={pid: place for place, pid in enumerate(players, start=1)}, by=organiser,
        )  # fmt: skip
    services.round_start(event=event, by=organiser, seed=rng.randrange(2**62))
    return event, (
        f"  {NAME} (Deck Masters): {PLAYERS} players over two days (Day 1: 3 rounds, 6+ points go on; Day 2: "
        f"2 rounds; a top {CUT} with byes for seeds 1-2), byes in round 1 for {' and '.join(QUALIFIED)}; round 1 "
        "played with a judge call and two deck checks, round 2 staged for the organiser to publish"
    )


def staff_user(event: Event, username: str):
    """The account of one of the event's staff."""
    return event.staff.select_related("user").get(user__username=username).user
