"""The chat at a table: who may say what on which channel, who reads which, and reports to the staff.

Messages are capped (`MAX_LENGTH`) and throttled per person (`BURST` messages in `BURST_SECONDS`),
carry no link (refused, with the reason said: a table's chat is no place for spam or phishing), are
stored as plain text (pages escape them), announced on the table's live channel once committed (the
event names no text: pages fetch what they may read), and never part of a game's record.
"""

from __future__ import annotations

import logging
import re

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import QuerySet

from arena.errors import NotSeated, PlayError
from arena.models import Match, MatchSeat, Player
from play import events
from play.models import ChatMessage, ChatReport

log = logging.getLogger(__name__)

MAX_LENGTH = 300
BURST = 5
BURST_SECONDS = 10
# An address a browser or a chat app would follow: a scheme, "www.", or a name under a common top-level
# domain ("example.com/..."); words with a dot inside ("e.g.", "3.5") are not links.
LINK = re.compile(
    r"(?i)\b(?:[a-z][a-z0-9+.-]*://|www\.)\S|\b[a-z0-9-]+\.(?:com|net|org|io|ly|gg|me|co|info|xyz|ru|fr|no)\b(?:/|\s|$)"
)


class ChatRefused(PlayError):
    """A message that cannot be said: empty, too long, with a link, too many too fast."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason  # "empty", "long", "link" or "fast", for the page to say in its language


def _seated(match_id: int, player: Player | None) -> bool:
    return player is not None and MatchSeat.objects.filter(match_id=match_id, player=player).exists()


def _players_private(match: Match) -> bool:
    """While a rated game runs, the players' words are theirs alone, and the spectators' kept from them."""
    return match.rated and match.status not in (Match.Status.FINISHED, Match.Status.FAILED)


def readable(match: Match, player: Player | None) -> QuerySet[ChatMessage]:
    """The messages `player` (None: an anonymous visitor) may read at this table, oldest first."""
    messages = ChatMessage.objects.filter(match=match).select_related("author").order_by("id")
    seated = _seated(match.id, player)
    if _players_private(match):
        channel = ChatMessage.Channel.PLAYERS if seated else ChatMessage.Channel.SPECTATORS
        messages = messages.filter(channel=channel)
    return messages


def channel_of(match: Match, player: Player | None) -> str:
    return ChatMessage.Channel.PLAYERS if _seated(match.id, player) else ChatMessage.Channel.SPECTATORS


def say(match: Match, player: Player, text: str) -> ChatMessage:
    text = " ".join(text.split())
    if not text:
        raise ChatRefused("say something", "empty")
    if len(text) > MAX_LENGTH:
        raise ChatRefused(f"a message has at most {MAX_LENGTH} characters", "long")
    if LINK.search(text):
        raise ChatRefused("a message carries no link", "link")
    key = f"chat-burst:{player.id}"
    cache.add(key, 0, BURST_SECONDS)
    if cache.incr(key) > BURST:
        raise ChatRefused(f"at most {BURST} messages in {BURST_SECONDS} s", "fast")
    with transaction.atomic():
        message = ChatMessage.objects.create(match=match, author=player, channel=channel_of(match, player), text=text)
        _announce(match.id)
    return message


def report(match: Match, player: Player, message_id: int) -> ChatReport:
    """A reader reports a message they can read; reporting it twice changes nothing."""
    message = readable(match, player).filter(pk=message_id).first()
    if message is None:
        raise NotSeated(f"no message {message_id} for you at match {match.id}")
    try:
        with transaction.atomic():
            return ChatReport.objects.create(message=message, reporter=player)
    except IntegrityError:
        return ChatReport.objects.get(message=message, reporter=player)


def reported_by(player: Player, message_ids: list[int]) -> set[int]:
    """Which of these messages this reader has reported."""
    return set(
        ChatReport.objects.filter(reporter=player, message_id__in=message_ids).values_list("message_id", flat=True)
    )


def _announce(match_id: int) -> None:
    """The table's live channel hears that the chat moved, once the message is stored; no text in it."""
    events.send_on_commit(events.table_channel(match_id), {"type": "chat"})
