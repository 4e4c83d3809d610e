from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from accounts.views import AccountCreateView, ThrottledTokenView
from accounts.web import admin_login
from arena.views import GamesView, MatchViewSet
from matchmaking.views import ArenaEntryWaitViewSet, ArenaQueueView
from ratings.views import LeaderboardView, PlayerStandingView, PlayerViewSet, RatingHistoryView
from submissions.views import BotViewSet
from tournaments.views import TournamentViewSet

# Answer JSON under /api/ (unknown paths, non-numeric ids included; errors raised outside DRF's views).
handler400 = "config.errors.bad_input"
handler403 = "config.errors.forbidden"
handler404 = "config.errors.not_found"
handler500 = "config.errors.internal_error"

router = DefaultRouter()
router.register("players", PlayerViewSet, basename="player")
router.register("matches", MatchViewSet, basename="match")
router.register("arena/entries", ArenaEntryWaitViewSet, basename="arena-entry")
router.register("bots", BotViewSet, basename="bot")
router.register("tournaments", TournamentViewSet, basename="tournament")

urlpatterns = [
    # The admin's login answers 429 while locked out, as /login/ does (accounts.web); before the admin's own.
    path("admin/login/", admin_login),
    path("admin/", admin.site.urls),
    path("api/games/", GamesView.as_view(), name="games"),
    path("api/leaderboards/<str:game>/", LeaderboardView.as_view(), name="leaderboard"),
    path(
        "api/leaderboards/<str:game>/players/<int:player_id>/",
        PlayerStandingView.as_view(),
        name="leaderboard-player",
    ),
    path(
        "api/players/<int:player_id>/ratings/<str:game>/",
        RatingHistoryView.as_view(),
        name="rating-history",
    ),
    path("api/auth/token/", ThrottledTokenView.as_view(), name="auth-token"),
    path("api/accounts/", AccountCreateView.as_view(), name="accounts"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/arena/queue/", ArenaQueueView.as_view(), name="arena-queue"),
    path("api/", include("play.urls")),
    path("api/", include(router.urls)),
    path("", include("web.urls")),
]
