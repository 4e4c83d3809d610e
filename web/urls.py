from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import include, path

from accounts.web import ThrottledLoginView
from web import chat, streams, views

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
    path("signup/", views.signup, name="signup"),
    path("login/", ThrottledLoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("leaderboard/<str:game>/", views.leaderboard_page, name="leaderboard"),
    path("players/<int:player_id>/", views.player_page, name="player"),
    path("me/", views.my_profile, name="me"),
    path("matches/<int:match_id>/", views.match_page, name="match"),
    path("matches/<int:match_id>/record.json", views.match_record, name="match-record"),
    path("play/", views.lobby, name="lobby"),
    path("play/<int:match_id>/", views.play_page, name="play"),
    path("play/<int:match_id>/panel/", views.play_panel, name="play-panel"),
    path("play/<int:match_id>/chat/", chat.messages, name="chat"),
    path("play/<int:match_id>/chat/say/", chat.say, name="chat-say"),
    path("play/<int:match_id>/chat/<int:message_id>/report/", chat.report, name="chat-report"),
    path("now-playing/", views.now_playing, name="now-playing"),
    path("notices/", views.notices_fragment, name="notices"),
    path("events/me/", streams.my_events, name="my-events"),
    path("events/tables/<int:match_id>/", streams.table_events, name="table-events"),
    path("rules/", views.rules, name="rules"),
    path("my-bots/", views.my_bots, name="bots"),
    path("my-bots/<int:bot_id>/matches/<int:match_id>/", views.bot_eyes, name="bot-eyes"),
    path("i18n/", include("django.conf.urls.i18n")),
]
