"""The web front: leaderboards, profiles, replays drawn as pizzas, the play table, in three languages."""
