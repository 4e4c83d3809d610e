"""What a bot is: something that turns an observation into an action."""

from __future__ import annotations

from typing import Protocol

from ..actions import Action
from ..observation import Observation


class Bot(Protocol):
    name: str

    def act(self, observation: Observation) -> Action: ...
