"""Tournaments of bots: round robin and swiss, duplicate deals, standings by finishing place."""
