"""The explanation sentences, from reason codes alone (no database)."""

from __future__ import annotations

from tournaments.explain import SeatFacts, explain_seat


def seat(name: str, points: int, reasons: tuple[str, ...], rank: int = 0, cut_seed: int | None = None) -> SeatFacts:
    return SeatFacts(name=name, points=points, rank=rank or None, reasons=reasons, cut_seed=cut_seed)


def explain(me: SeatFacts, *others: SeatFacts, one_vs_one: bool = True, table: int | None = 1, **kw) -> str:
    return " ".join(
        explain_seat(me, list(others), table_number=table, round_number=3, one_vs_one=one_vs_one, seed=42, **kw)
    )


def test_a_pair_down_names_both_players_points_and_why() -> None:
    text = explain(seat("Ash", 6, ("paired_down",), rank=4), seat("Misty", 3, ("paired_up",), rank=9))
    assert "You had 6 points (ranked 4)" in text and "Misty had 3 points (ranked 9)" in text
    assert "paired down" in text and "seed, 42" in text


def test_a_rematch_and_a_fixed_table_are_both_explained() -> None:
    text = explain(seat("Ash", 3, ("same_points", "rematch", "fixed_table")), seat("Brock", 3, ()), table=12)
    assert "within their point group" in text and "played someone at this table before" in text
    assert "table 12, the table the organiser fixed for you" in text


def test_byes_say_who_chose_them() -> None:
    assert "The organiser gave you a bye" in explain(seat("Ash", 3, ("bye_assigned",)), table=None)
    assert "lowest-ranked player" in explain(seat("Ash", 0, ("bye",)), table=None)
    assert "at random (seeded)" in explain(seat("Ash", 0, ("first_round", "bye")), table=None)


def test_pods_list_the_pod_mates_points_and_an_edited_round_has_no_seed() -> None:
    text = explain(seat("Ash", 6, ("mixed_points",)), seat("B", 6, ()), seat("C", 3, ()), one_vs_one=False, edited=True)
    assert "pod-mates had 6 points, 3 points" in text and "seed" not in text
    assert "by hand" in explain(seat("Ash", 6, ("swapped",)), seat("B", 3, ()))


def test_the_top_cut_names_the_seeds() -> None:
    text = explain(seat("Ash", 12, ("top_cut",), cut_seed=1), seat("Gary", 9, ("top_cut",), cut_seed=8))
    assert "you are seed 1" in text and "Gary (seed 8)" in text


def test_seat_one_in_a_pod_is_explained() -> None:
    text = " ".join(
        explain_seat(
            seat("Ash", 3, ("same_points",)), [seat("B", 3, ())], table_number=2, round_number=2,
            one_vs_one=False, seed=1, seat_order=1,
        )
    )  # fmt: skip
    assert "go first" in text


def test_a_table_staff_changed_names_who_was_swapped_in_instead_of_the_pairings_reason() -> None:
    text = explain(
        seat("Ash", 3, ("table_changed", "same_points", "rematch"), rank=1),
        seat("Misty", 0, ("swapped", "rematch"), rank=4),
        edited=True,
    )
    assert "Staff changed your table by hand after round 3 was paired: Misty was swapped in." in text
    assert "You had 3 points (ranked 1) when round 3 was paired. Misty had 0 points (ranked 4)." in text
    assert "staff set this table by hand" in text
    assert "point group" not in text and "no pairing of the whole field" not in text and "seed" not in text


def test_the_player_moved_by_hand_is_told_so_in_a_pod_and_at_the_bye() -> None:
    text = explain(
        seat("Ash", 3, ("swapped",)), seat("B", 3, ("table_changed", "same_points")), seat("C", 0, ("table_changed",)),
        one_vs_one=False, seat_order=1,
    )  # fmt: skip
    assert "Staff moved you to this table by hand" in text and "B had 3 points; C had 0 points." in text
    assert "go first" not in text and "same points" not in text
    assert "Staff moved you into the bye by hand" in explain(seat("Ash", 0, ("swapped",)), table=None)
