"""A match's seats are written twice, queued (who sits where) and finished (score, placing, ratings):
the second write changes no indexed column, so PostgreSQL can keep it on the row's own page without
touching the seats' four indexes (a HOT update), but only where the page has room for it. Packed full
(fillfactor 100), four of five seats' results went to another page and into every index again. Pages
written from now on keep half of their room for those results."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("arena", "0012_match_record_packed"),
    ]

    operations = [
        migrations.RunSQL(
            "ALTER TABLE arena_matchseat SET (fillfactor = 50)",
            "ALTER TABLE arena_matchseat RESET (fillfactor)",
        ),
    ]
