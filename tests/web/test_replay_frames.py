"""Replay frames: every step's owners, eaten slices, cuts and captions, steals and swaps marked."""

from __future__ import annotations

from django.utils.translation import override

from games.part_du_chef import Cut, State, Steal, Swap, Take, replay
from web.replay import frames
from web.sentences import slice_name


def played_with_a_steal_and_a_swap() -> dict:
    """Seed 29: pizza 1 is cut [4, 5, 6]; cat's finisher 0 steals ben's margherita 3; on pizza 3 cat
    uses La Marianne, giving 4 and 12 for ann's chili 57 and ben's margherita 14."""
    state = State.new(3, 29, marianne=True)
    state.apply(Cut((4, 5, 6)))
    state.apply(Take(0))  # ben keeps the margherita 3
    state.apply(Take(2, eat=(31,), steals=(Steal(0, 1, 3),)))  # cat eats a 4 fromages, steals 3 from ben
    state.apply(Take(1))  # ann keeps the chili 57
    for _ in range(4):  # pizza 2: plain cut and takes
        state.apply(Cut((0, 1, 2)) if state.phase == "cut" else Take(state.available_portions()[0]))
    state.apply(Cut((0, 1, 2), marianne=Swap((4, 12), (57, 14))))
    return state.to_record(["ann", "ben", "cat"])


def test_frames_follow_the_game_step_by_step() -> None:
    record = played_with_a_steal_and_a_swap()
    with override("en"):
        steps = frames(record)
    assert len(steps) == len(record["actions"]) + 1
    assert steps[0].owner == {} and steps[0].cuts == [None] * 5 and steps[0].caption.startswith("The deal")
    assert steps[1].cuts[0] == [4, 5, 6] and steps[1].caption == "ann cut pizza 1 into 3 portions at gaps 5, 6, 7."
    assert steps[2].owner == {3: 1}
    steal = steps[3]
    assert steal.moved == [3] and steal.owner[3] == 2 and steal.eaten == {31: 2}
    assert steal.caption.startswith(
        "cat took portion 3, ate 4 Fromages (1 olive), kept Margherita (2 olives) ×2, Truffe (1 olive, double finisher)"
    )
    assert steal.caption.endswith(" Their double finisher stole Margherita (2 olives) from ben.")
    swap = steps[-1]
    assert sorted(swap.moved) == [4, 12, 14, 57]
    assert (swap.owner[57], swap.owner[14], swap.owner[4], swap.owner[12]) == (2, 2, 0, 1)
    # Whose slices were taken, and who received each slice given.
    with override("en"):
        expected = (
            f"La Marianne: cat swapped slices; ann received {slice_name(4)} and lost {slice_name(57)}; "
            f"ben received {slice_name(12)} and lost {slice_name(14)}."
        )
    assert swap.caption.endswith(expected)
    assert swap.totals == [s["total"] for s in swap_scores(record)]


def swap_scores(record: dict) -> list[dict]:
    return [s.to_json() for s in replay(record, allow_unfinished=True).scores()]


def test_captions_speak_the_viewer_s_language() -> None:
    record = played_with_a_steal_and_a_swap()
    with override("fr"):
        assert frames(record)[1].caption == "ann a coupé la pizza 1 en 3 portions aux interstices 5, 6, 7."
        assert "Sa double finisseuse a volé Margherita (2 olives) à ben." in frames(record)[3].caption
    with override("nb"):
        assert frames(record)[1].caption == "ann delte pizza 1 i 3 porsjoner ved mellomrommene 5, 6, 7."
        assert "Pizza 1 er delt ut. Poeng så langt: " in frames(record)[4].caption
