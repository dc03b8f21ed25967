"""The dashboard's people side in a real browser: settling a disputed table, correcting a result, staff, audit, QR code.

A judge settles a table two players disagree about, entering its game score;
a scorekeeper corrects a result of round 1 after round 2 was paired, giving a
reason, and is told round 2 stays as paired; the organiser adds, changes and
removes staff, reads the audit trail and opens check-in to show the QR code.
Every page passes axe-core and fits a 390 px phone without sideways scrolling.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE
from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.browser import assert_fits, axe_check, wait_for_htmx
from tournaments import services
from tournaments.models import AuditEntry, EventStaff, Player, ResultReport, Seat
from tournaments.services import results, staff

pytestmark = pytest.mark.browser


@pytest.fixture
def crew(django_user_model):
    return {
        "judge": django_user_model.objects.create_user(username="jo", password="pw"),
        "scorekeeper": django_user_model.objects.create_user(username="sam", password="pw"),
    }


@pytest.fixture
def disputed(organiser, running_event, crew, django_user_model):
    """The running event with player reports on, its staff, and table 1 of round 1 disputed by its players."""
    for username, role in (("jo", "judge"), ("sam", "scorekeeper")):
        staff.staff_add(event=running_event, username=username, role=role, by=organiser)
    services.event_update(event=running_event, by=organiser, player_reports=True)
    a, b = _seats(running_event, 1)
    accounts = []
    for seat in (a, b):
        user = django_user_model.objects.create_user(username=f"player{seat.player_id}", password="pw")
        Player.objects.filter(pk=seat.player_id).update(user=user)
        accounts.append(user)
    results.result_player_report(
        event=running_event, round_number=1, table_number=1, by=accounts[0],
        placements={a.player_id: 1, b.player_id: 2}, games={a.player_id: (2, 0, 0), b.player_id: (0, 2, 0)},
    )  # fmt: skip
    results.result_respond(event=running_event, round_number=1, table_number=1, agrees=False, by=accounts[1])
    return running_event


def _seats(event, table: int, number: int = 1) -> list[Seat]:
    return list(
        Seat.objects.filter(round__event=event, round__number=number, pod__table_number=table)
        .select_related("player")
        .order_by("seat_order")
    )


def _card(page, table: int):
    return page.locator(".table-card").filter(has=page.get_by_text(f"Table {table}", exact=True))


def test_a_judge_settles_a_disputed_table_with_its_game_score(new_page, crew, disputed):
    a, b = _seats(disputed, 1)
    page = new_page(user=crew["judge"])
    page.goto(f"/dashboard/events/{disputed.pk}/")
    wait_for_htmx(page)
    settle = page.get_by_role("region", name="Reports to settle")
    expect(settle).to_contain_text("1 table with a player report: table 1 disputed")
    table = _card(page, 1)
    expect(table).to_contain_text(f"{a.player.display_name} reported: {a.player.display_name} won 2–0")
    expect(table).to_contain_text(f"{b.player.display_name} disputes it.")
    expect(_card(page, 2).get_by_role("button")).to_have_count(0)  # nothing to settle there
    axe_check(page)

    # The players played three games: the judge enters 2–1 and the winner.
    table.get_by_label(f"Games won by {a.player.display_name}").fill("2")
    table.get_by_label(f"Games won by {b.player.display_name}").fill("1")
    table.get_by_role("button", name=f"{a.player.display_name} wins").click()
    expect(table).to_contain_text("reported")
    expect(table.locator(".score").first).to_have_text("2–1")
    expect(page.locator("#to-settle")).to_be_empty()
    expect(page.locator("#dashboard-announcer")).to_have_text("Recorded the result of table 1.")
    assert ResultReport.objects.get(pod__round__event=disputed).status == ResultReport.Status.SETTLED
    axe_check(page)


def test_a_judge_accepts_the_report_a_walk_in_cannot_confirm(
    new_page, organiser, crew, running_event, django_user_model, tmp_path
):
    event = running_event
    staff.staff_add(event=event, username="jo", role="judge", by=organiser)
    services.event_update(event=event, by=organiser, player_reports=True)
    a, b = _seats(event, 2)
    reporter = django_user_model.objects.create_user(username="reporter", password="pw")
    Player.objects.filter(pk=a.player_id).update(user=reporter)  # b stays a walk-in: no account
    results.result_player_report(
        event=event, round_number=1, table_number=2, by=reporter, placements={a.player_id: 1, b.player_id: 2}
    )
    page = new_page(user=crew["judge"])
    page.goto(f"/dashboard/events/{event.pk}/")
    wait_for_htmx(page)
    table = _card(page, 2)
    expect(table).to_contain_text(f"Waiting for {b.player.display_name} to confirm.")
    axe_check(page)
    table.screenshot(path=tmp_path / "accept-report-before.png")

    table.get_by_role("button", name="Accept this report of table 2").click()
    expect(table).to_contain_text("reported")
    expect(table.get_by_role("button", name="Accept this report of table 2")).to_have_count(0)
    expect(page.locator("#to-settle")).to_be_empty()
    expect(page.locator("#dashboard-announcer")).to_have_text("Recorded the result of table 2.")
    assert ResultReport.objects.get(pod__round__event=event).status == ResultReport.Status.CONFIRMED
    axe_check(page)
    table.screenshot(path=tmp_path / "accept-report-after.png")
    print(f"screenshots in {tmp_path}")


def test_a_wrong_game_score_is_refused_at_its_table(new_page, organiser, running_event):
    a, b = _seats(running_event, 2)
    page = new_page(user=organiser)
    page.goto(f"/dashboard/events/{running_event.pk}/")
    wait_for_htmx(page)
    table = _card(page, 2)
    table.get_by_label(f"Games won by {a.player.display_name}").fill("0")
    table.get_by_label(f"Games won by {b.player.display_name}").fill("2")
    table.get_by_role("button", name=f"{a.player.display_name} wins").click()
    expect(table.get_by_role("alert")).to_contain_text("The game score and the placements disagree")
    expect(table).to_be_focused()
    expect(table.get_by_label(f"Games won by {b.player.display_name}")).to_have_value("2")  # kept to fix
    table.get_by_role("button", name="Intentional draw at table 2").click()
    expect(table.get_by_role("alert")).to_contain_text("An intentional draw is not played out")
    # The refusal's card finishes its swap before the score is cleared, and the cleared fields are checked: once,
    # in a full run on a busy machine, the third request was refused like the second (not reproduced alone).
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
    for name in (f"Games won by {a.player.display_name}", f"Games won by {b.player.display_name}", "Drawn games"):
        table.get_by_label(name).fill("")
        expect(table.get_by_label(name)).to_have_value("")
    table.get_by_role("button", name="Intentional draw at table 2").click()
    expect(table).to_contain_text("Intentional draw.")
    axe_check(page)


def test_a_scorekeeper_corrects_a_result_of_an_earlier_round_with_a_reason(new_page, organiser, crew, running_event):
    staff.staff_add(event=running_event, username="sam", role="scorekeeper", by=organiser)
    a, b = _seats(running_event, 1)
    for pod in running_event.rounds.get().pods.filter(is_bye=False).prefetch_related("seats"):
        first, second = sorted(pod.seats.all(), key=lambda s: s.seat_order)
        services.pod_result_report(
            event=running_event, round_number=1, table_number=pod.table_number,
            placements={first.player_id: 1, second.player_id: 2}, by=organiser,
        )  # fmt: skip
    services.round_start(event=running_event, by=organiser, seed=8)
    round_2 = sorted(Seat.objects.filter(round__number=2).values_list("player_id", "pod_id"))

    page = new_page(user=crew["scorekeeper"])
    page.goto(f"/dashboard/events/{running_event.pk}/")
    page.get_by_role("navigation", name="Rounds").get_by_role("link", name="Round 1").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Round 1")
    expect(page.get_by_text("Round 2 was paired after this round.")).to_be_visible()
    axe_check(page)
    _card(page, 1).get_by_role("link", name="Correct the result of table 1").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Correct the result of Round 1, table 1")
    expect(page.locator("#kept-as-paired")).to_contain_text("Round 2 was paired after this round and stays as paired.")
    axe_check(page)

    # Without a reason the form says so at the reason; the choices stay as made.
    page.get_by_label(f"{b.player.display_name} won").check()
    page.get_by_role("button", name="Correct the result").click()
    reason = page.get_by_label("Reason")
    expect(page.locator(".field.has-error")).to_contain_text("Say why the result is corrected.")
    expect(page.get_by_label(f"{b.player.display_name} won")).to_be_checked()
    axe_check(page)
    reason.fill("The players signed the slip the wrong way round")
    page.get_by_role("button", name="Correct the result").click()
    expect(page.locator(".messages")).to_contain_text(
        "Corrected Round 1, table 1. Round 2 was paired before the correction and stays as paired."
    )
    expect(_card(page, 1)).to_contain_text("corrected")
    assert [s.placement for s in _seats(running_event, 1)] == [2, 1]
    assert sorted(Seat.objects.filter(round__number=2).values_list("player_id", "pod_id")) == round_2
    assert AuditEntry.objects.get(action="result.corrected").reason.startswith("The players signed")


def test_the_organiser_manages_staff_and_reads_the_audit_trail(new_page, organiser, crew, running_event):
    page = new_page(user=organiser)
    page.goto(f"/dashboard/events/{running_event.pk}/")
    page.get_by_role("navigation", name="Event dashboard").get_by_role("link", name="Staff").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("staff")
    expect(page.get_by_role("table").filter(has_text="Read the audit trail")).to_be_visible()
    axe_check(page)

    page.get_by_label("Username").fill("nobody")
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.locator(".field.has-error")).to_contain_text("No account is called 'nobody'.")
    page.get_by_label("Username").fill("jo")
    page.get_by_label("Role", exact=True).select_option(label="Judge")
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.locator(".messages")).to_contain_text("jo is Judge at this event.")
    page.get_by_label("Role of jo").select_option(label="Scorekeeper")
    page.get_by_role("button", name="change the role of jo").click()
    expect(page.locator(".messages")).to_contain_text("jo is Scorekeeper at this event.")
    assert EventStaff.objects.get(user=crew["judge"]).role == "scorekeeper"
    page.get_by_role("button", name="remove jo from the staff").click()
    expect(page.locator(".messages")).to_contain_text("jo is no longer on the staff of this event.")
    assert not EventStaff.objects.exists()

    page.get_by_role("navigation", name="Event dashboard").get_by_role("link", name="Audit trail").click()
    entries = page.locator(".audit-entry")
    expect(entries.first).to_contain_text("Staff removed · jo")
    expect(entries.nth(1)).to_contain_text("role: Judge → Scorekeeper")
    axe_check(page)
    page.get_by_role("navigation", name="Kinds of change").get_by_role("link", name="Rounds").click()
    expect(entries).to_have_count(1)
    expect(entries.first).to_contain_text("Round paired · Round 1")
    expect(entries.first).to_contain_text("3 tables, seed 7")


def test_opening_check_in_shows_the_qr_code_with_its_link(new_page, organiser, running_event):
    page = new_page(user=organiser)
    page.goto(f"/dashboard/events/{running_event.pk}/")
    check_in = page.locator("#check-in")
    expect(check_in.locator("svg")).to_have_count(0)
    check_in.get_by_role("button", name="Open check-in").click()
    expect(check_in.get_by_role("img", name="QR code of the check-in page")).to_be_visible()
    link = check_in.get_by_role("link", name=f"/events/{running_event.pk}/check-in/")
    expect(link).to_have_attribute("href", page.url.split("/dashboard/")[0] + f"/events/{running_event.pk}/check-in/")
    box = check_in.locator("svg").bounding_box()
    assert box["width"] >= 120 and abs(box["width"] - box["height"]) < 1  # big enough to scan, square
    axe_check(page)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_people_pages_fit_the_screen_and_pass_axe(new_page, organiser, crew, disputed, viewport):
    event = disputed
    services.event_update(event=event, by=organiser, check_in_open=True, casters_see_decklists=True)
    twins = [RegistrationFactory(event=event, player=PlayerFactory(display_name="Ash"), checked_in=False) for _ in "ab"]
    services.registration_drop(registration=twins[0], by=organiser)
    services.registration_check_in(registration=twins[1], by=organiser)
    page = new_page(viewport=viewport, user=organiser)
    for url in (
        f"/dashboard/events/{event.pk}/",
        f"/dashboard/events/{event.pk}/settings/",
        f"/dashboard/events/{event.pk}/staff/",
        f"/dashboard/events/{event.pk}/audit/",
        f"/dashboard/events/{event.pk}/penalties/",
    ):
        response = page.goto(url)
        assert response.status == 200, url
        assert_fits(page)
        axe_check(page)
    page.goto(f"/dashboard/events/{event.pk}/")
    expect(page.locator(f"#reg-{twins[0].pk}")).to_contain_text(f"Ash (#{twins[0].player_id})")
    # The row tools with the claim code, and the undo-drop form, open inside the players card.
    page.locator(f"#reg-{twins[1].pk} summary").click()
    page.locator(f"#reg-{twins[1].pk}").get_by_role("button", name="claim code for Ash").click()
    code = page.locator(f"#reg-{twins[1].pk} .claim code")
    expect(code).to_be_visible()
    assert code.inner_text() == Player.objects.get(pk=twins[1].player_id).claim_code
    page.locator(f"#reg-{twins[0].pk} summary").click()
    assert_fits(page)
    axe_check(page)
    page.locator(f"#reg-{twins[0].pk}").get_by_label("Reason").fill("Dropped the wrong Ash")
    page.locator(f"#reg-{twins[0].pk}").get_by_role("button", name="undo the drop of Ash").click()
    expect(page.locator(f"#reg-{twins[0].pk}")).not_to_contain_text("dropped after round")

    # A judge's view of the same event, and the pages of an earlier round and of a correction.
    report_all_open(event, organiser)
    services.round_start(event=event, by=organiser, seed=11)
    for url in (f"/dashboard/events/{event.pk}/rounds/1/", f"/dashboard/events/{event.pk}/rounds/1/tables/1/correct/"):
        page.goto(url)
        assert_fits(page)
        axe_check(page)
    judge = new_page(viewport=viewport, user=crew["judge"])
    judge.goto(f"/dashboard/events/{event.pk}/")
    assert_fits(judge)
    axe_check(judge)


def report_all_open(event, organiser) -> None:
    round_ = event.rounds.order_by("-number").first()
    for pod in round_.pods.filter(is_bye=False, result__isnull=True).prefetch_related("seats"):
        seats = sorted(pod.seats.all(), key=lambda s: s.seat_order)
        services.pod_result_report(
            event=event, round_number=round_.number, table_number=pod.table_number,
            placements={s.player_id: i for i, s in enumerate(seats, start=1)}, by=organiser,
        )  # fmt: skip
