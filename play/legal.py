"""The choices open to a seat, in a form a client can draw: gaps to cut, portions, slices, steals."""

from __future__ import annotations

from typing import Any

from games.part_du_chef import DECK, State

RING = 13


def choices(state: State, seat: int) -> dict[str, Any] | None:
    """None unless `seat` is to act. Slice ids refer to the observation's `ring` and `kept` lists."""
    if state.is_over or state.to_act != seat:
        return None
    marianne = {"can_use": state.can_use_marianne(seat), "give": [], "take": []}
    if marianne["can_use"]:
        marianne["give"] = sorted(state.kept[seat])
        marianne["take"] = sorted(s for other, kept in enumerate(state.kept) if other != seat for s in kept)
    if state.phase == "cut":
        return {
            "phase": "cut",
            # Cut point c is the gap just before ring position c (position 12 neighbours position 0).
            "cut": {"points": state.players, "gaps": list(range(RING))},
            "portions": [],
            "marianne": marianne,
        }
    portions = []
    for index in state.available_portions():
        slices = state.portions[index]
        portions.append(
            {
                "index": index,
                "slices": list(slices),
                "edible": [s for s in slices if DECK[s].edible],
                "finishers": [
                    {
                        "slice": s,
                        "steal_options": [
                            {"from": victim, "slice": sid} for victim, sid in state.steal_options(seat, s)
                        ],
                    }
                    for s in slices
                    if DECK[s].finisher
                ],
            }
        )
    return {"phase": "take", "cut": None, "portions": portions, "marianne": marianne}
