from __future__ import annotations

from django.urls import path
from rest_framework.routers import SimpleRouter

from arena.play import views

router = SimpleRouter()
router.register("tables", views.FriendlyTableViewSet, basename="table")

urlpatterns = [
    path("matches/<int:pk>/state/", views.MatchStateView.as_view(), name="match-state"),
    path("matches/<int:pk>/actions/", views.MatchActionView.as_view(), name="match-actions"),
    path("matches/<int:pk>/resign/", views.MatchResignView.as_view(), name="match-resign"),
    path("arena/queue/", views.ArenaQueueView.as_view(), name="arena-queue"),
    *router.urls,
]
