from __future__ import annotations

from django.urls import path
from rest_framework.routers import SimpleRouter

from play import views

router = SimpleRouter()
router.register("tables", views.FriendlyTableViewSet, basename="table")

urlpatterns = [
    path("matches/<int:pk>/state/", views.MatchStateView.as_view(), name="match-state"),
    path("matches/<int:pk>/actions/", views.MatchActionView.as_view(), name="match-actions"),
    path("matches/<int:pk>/resign/", views.MatchResignView.as_view(), name="match-resign"),
    *router.urls,
]
