from __future__ import annotations

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        # Imported here, not at the top: models can be imported only once the app registry is ready.
        from arena.secrecy import register_hold_back
        from results.signals import matches_committed
        from tournaments import receivers
        from tournaments.secrecy import deal_hold_backs

        matches_committed.connect(receivers.tournament_matches_done, dispatch_uid="tournaments.matches_done")
        register_hold_back("tournament-deals", deal_hold_backs)
