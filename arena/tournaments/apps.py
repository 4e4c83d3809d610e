from __future__ import annotations

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "arena.tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        # Imported here, not at the top: models can be imported only once the app registry is ready.
        from arena.secrecy import register_hold_back
        from arena.signals import match_committed
        from arena.tournaments import receivers
        from arena.tournaments.secrecy import deal_hold_backs

        match_committed.connect(receivers.tournament_match_done, dispatch_uid="tournaments.match_done")
        register_hold_back("tournament-deals", deal_hold_backs)
