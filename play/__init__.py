"""People at the table: interactive matches played decision by decision, the people's arena queue,
friendly tables, and the turn clock."""
