"""README.md and docs/*.md name only what exists: paths, links and anchors, the project's modules and their
names, commands and their options (whose `--help` runs, and whose synopsis's defaults are theirs), settings
(`ARENA_*`, `DATABASE_*`, `PART_DU_CHEF_*`) and the defaults stated beside them, and the README's configuration
table's. And the checker catches a false claim of each kind."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from .claims import (
    ROOT,
    check_configuration_table,
    check_page,
    lines_of,
    runs_help,
    settings_defaults,
    slug,
)

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("page", PAGES, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_every_path_command_and_setting_a_page_names_exists(page: Path):
    relative = page.relative_to(ROOT).as_posix()
    problems = check_page(relative, page.read_text())
    assert problems == [], "\n".join(problems)


def test_the_readme_configuration_table_gives_the_settings_defaults():
    problems, compared = check_configuration_table("README.md", (ROOT / "README.md").read_text(), settings_defaults())
    assert problems == [], "\n".join(problems)
    assert compared >= 15  # every row with a literal default in config/settings.py


# -- the checker catches false claims ------------------------------------------------------------


def _problems(text: str, page: str = "docs/example.md") -> list[str]:
    return check_page(page, text)


def test_true_claims_of_every_kind_pass():
    page = """# Example

See `botclient/server.py`, `starter-kits/`, [the CLI](cli.md#compare), [the README](../README.md) and
[below](#example); `ratings.ledger.replay_ledger`, `botclient.stdio.SandboxedBot.reuse_key` and the task
`arena.play_match`; set `ARENA_MATCH_LEASE_SECONDS` (120 s), `ARENA_MAX_BODY_BYTES` (2,621,440 bytes),
`ARENA_BOT_UPLOAD_MAX_BYTES` (1 MiB), `ARENA_THROTTLE_TABLE` 120/hour or `PART_DU_CHEF_CONFIG`.

```sh
part-du-chef submit mybot.py --name chef --wait
python -m games.part_du_chef ladder --seed 1 --games 100
python -m games.part_du_chef ladder [--games 120] [--seed 1] [--playouts P]
part-du-chef compare A B [--against BOT] [--deals 30]
.venv/bin/python manage.py prepare_services
```
"""
    assert _problems(page) == []


@pytest.mark.parametrize(
    ("claim", "found"),
    [
        ("see `botclient/nowhere.py`", "`botclient/nowhere.py` does not exist"),
        ("see `bots/nowhere.py`", "`bots/nowhere.py` is no file of the tree"),
        ("see [the page](nowhere.md)", "links to docs/nowhere.md, which does not exist"),
        ("see [the CLI](cli.md#no-such-heading)", "docs/cli.md has no heading #no-such-heading"),
        ("see [above](#no-such-heading)", "docs/example.md has no heading #no-such-heading"),
        ("run `part-du-chef frobnicate`", "`part-du-chef frobnicate`: no such command"),
        ("run `part-du-chef simulate --bots x --frob 3`", "`part-du-chef simulate` has no option --frob"),
        ("run `python -m games.part_du_chef login`", "`python -m games.part_du_chef login`: no such command"),
        ("run `part-du-chef compare A B [--deals 20]`", "`part-du-chef compare`: --deals does not default to 20"),
        ("run `manage.py no_such_command`", "`manage.py no_such_command`: no such command"),
        ("run `manage.py prepare_services --frob`", "`manage.py prepare_services` has no option --frob"),
        ("set ARENA_NO_SUCH_SETTING=1", "ARENA_NO_SUCH_SETTING: no code reads this setting"),
        ("set PART_DU_CHEF_NO_SUCH=1", "PART_DU_CHEF_NO_SUCH: no code reads this setting"),
        (
            "at most `ARENA_MAX_OPEN_TABLES` (7) tables",
            "ARENA_MAX_OPEN_TABLES: the page says '`ARENA_MAX_OPEN_TABLES` (7'",
        ),
        ("up to `ARENA_BOT_UPLOAD_MAX_BYTES` (2 MiB)", "ARENA_BOT_UPLOAD_MAX_BYTES: the page says"),
        ("`ARENA_THROTTLE_TABLE` 12/hour per user", "the default is '120/hour'"),
        ("`ratings.ledger.no_such_function`", "`ratings.ledger.no_such_function`: ratings.ledger defines no no_such_"),
        ("`botclient.stdio.SandboxedBot.no_such`", "`botclient.stdio.SandboxedBot.no_such`: SandboxedBot has no no_su"),
    ],
)
def test_a_false_claim_of_each_kind_is_caught(claim, found):
    problems = _problems(f"# Example\n\nText, then {claim}.\n")
    assert len(problems) == 1 and problems[0].startswith("docs/example.md:3: ") and found in problems[0], problems


def test_a_false_command_in_a_code_block_is_caught_and_a_comment_is_not_read_as_options():
    page = "```sh\npart-du-chef status --frob   # --not-an-option, a comment\npart-du-chef jump\n```\n"
    assert _problems(page) == [
        "docs/example.md:2: `part-du-chef status` has no option --frob",
        "docs/example.md:3: `part-du-chef jump`: no such command",
    ]


def test_a_wrong_default_in_the_configuration_table_is_caught():
    readme = """## Configuration (environment)

| variable | default |
|---|---|
| `ARENA_MATCH_LEASE_SECONDS` | `90` (a running match past its lease is retried) |
| `ARENA_BOT_ALLOW_PRIVATE_URLS` | on; `1` lets them in |
| `ARENA_THROTTLE_TABLE`, `ARENA_THROTTLE_RESIGN` | `120/hour`, `12/hour` per user |
| `ARENA_CLAIM_BATCH` | `8` |
"""
    problems, compared = check_configuration_table("README.md", readme, settings_defaults())
    assert compared == 5
    assert problems == [
        "README.md:5: ARENA_MATCH_LEASE_SECONDS: the table says '90', the settings 120.0",
        "README.md:6: ARENA_BOT_ALLOW_PRIVATE_URLS: the table says 'on', the settings False",
        "README.md:7: ARENA_THROTTLE_RESIGN: the table says '12/hour', the settings '120/hour'",
    ]


def test_a_command_whose_help_cannot_be_printed_is_caught():
    parser = argparse.ArgumentParser(prog="part-du-chef demo")
    parser.add_argument("--share", help="a share in % of the games")  # a lone % breaks argparse's formatting
    assert runs_help(parser) is None
    fine = argparse.ArgumentParser(prog="part-du-chef demo")
    fine.add_argument("--share", help="a share in %% of the games")
    assert "a share in % of the games" in (runs_help(fine) or "")


def test_anchors_are_github_s():
    assert slug("part-du-chef: bot programs and URLs") == "part-du-chef-bot-programs-and-urls"
    assert slug("A lone bot's first arena game") == "a-lone-bots-first-arena-game"
    assert slug("`act`") == "act"
    assert [line.code for line in lines_of("x.md", "text\n\n    indented code\n```\nfenced\n```\n")] == [
        False,
        False,
        True,
        True,
    ]
