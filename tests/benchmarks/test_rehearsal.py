"""The rehearsal's plan and judge (`arena.benchmarks.rehearsal`), and the uploads it packs
for Python entrants (`workers.rehearsal_entrants`), checked by the site's own upload check."""

from __future__ import annotations

import itertools
import random

import pytest

from arena.benchmarks.rehearsal import (
    FAULTS,
    KINDS,
    adjacent_in_order,
    agreement,
    kendall_tau,
    plan_entrants,
    true_order,
)
from arena.uploads import inspect_upload
from workers.rehearsal_entrants import EXAMPLE, BuiltKits, pack, upload_files


def _tau_by_counting(truth: list[int], found: list[int]) -> float:
    """Kendall's tau from its definition over every pair (concordant - discordant)."""
    rank = {item: i for i, item in enumerate(found)}
    pairs = list(itertools.combinations(truth, 2))
    concordant = sum(rank[a] < rank[b] for a, b in pairs)
    return (concordant - (len(pairs) - concordant)) / len(pairs)


def test_kendall_tau_is_one_for_the_same_order_and_minus_one_reversed() -> None:
    order = list(range(10))
    assert kendall_tau(order, order) == 1.0
    assert kendall_tau(order, order[::-1]) == -1.0


def test_kendall_tau_of_one_swapped_neighbour_pair() -> None:
    n = 12
    truth = list(range(n))
    found = truth[:]
    found[4], found[5] = found[5], found[4]
    assert kendall_tau(truth, found) == pytest.approx(1 - 4 / (n * (n - 1)))


def test_kendall_tau_agrees_with_its_definition_on_random_orders() -> None:
    rng = random.Random(36)
    for n in (2, 3, 7, 30):
        truth = list(range(n))
        for _ in range(20):
            found = rng.sample(truth, n)
            assert kendall_tau(truth, found) == pytest.approx(_tau_by_counting(truth, found))


def test_adjacent_pairs_count_the_truths_neighbours_in_order() -> None:
    truth = list("abcdef")
    assert adjacent_in_order(truth, truth) == 5
    assert adjacent_in_order(truth, truth[::-1]) == 0
    assert adjacent_in_order(truth, list("bacdfe")) == 3  # a-b and e-f swapped


@pytest.mark.parametrize(
    ("truth", "found"),
    [("abc", "abd"), ("abc", "ab"), ("a", "a"), ("aab", "aab"), ("abc", "abca")],
)
def test_orders_of_different_items_are_refused(truth: str, found: str) -> None:
    with pytest.raises(ValueError, match=r"same two or more|appears twice"):
        kendall_tau(list(truth), list(found))


def test_agreement_counts_pairs_the_intervals_tell_apart_and_any_the_wrong_way() -> None:
    truth = ["a", "b", "c", "d"]
    found = ["b", "a", "d", "c"]
    # a and b overlap (a swap within noise); c and d are apart, and found the wrong way
    intervals = {"a": (1.0, 3.0), "b": (2.0, 4.0), "c": (5.0, 6.0), "d": (7.0, 8.0)}
    judged = agreement(truth, found, intervals)
    assert judged.entrants == 4 and judged.adjacent == 3
    assert judged.adjacent_right == 1  # b-c only
    assert judged.adjacent_separated == 2  # b-c, c-d
    assert judged.pairs_separated == 5  # every pair but a-b
    assert judged.separated_wrong == 1  # c-d
    assert judged.tau == pytest.approx(kendall_tau(truth, found))


def test_the_plan_spreads_the_handicap_and_deals_the_kits() -> None:
    plans = plan_entrants(48)
    assert [plan.handicap for plan in plans] == sorted(plan.handicap for plan in plans)
    assert plans[0].handicap == 0.0 and plans[-1].handicap == 1.0
    assert len({plan.name for plan in plans}) == 48
    broken = [plan for plan in plans if plan.fault]
    assert sorted(str(plan.fault) for plan in broken) == sorted(FAULTS)
    assert all(plan.kind == "python" for plan in broken)
    sound = [plan for plan in plans if not plan.fault]
    assert {plan.kind for plan in sound} == set(KINDS)
    updaters = [plan for plan in plans if plan.updates]
    assert len(updaters) == 6 and not any(plan.fault for plan in updaters)
    for plan in updaters:  # from the ends of the field, where 1 - p is far from p
        first = plan.first_handicap
        assert first is not None and first == pytest.approx(1 - plan.handicap)
        assert abs(first - plan.handicap) >= 0.5
    assert true_order(plans) == [plan.name for plan in sound]


def test_a_plan_too_small_or_too_broken_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 4"):
        plan_entrants(3)
    with pytest.raises(ValueError, match="at most half"):
        plan_entrants(8, broken=5)


@pytest.mark.parametrize("fault", [None, *FAULTS])
def test_a_python_entrants_upload_passes_the_sites_check(fault: str | None) -> None:
    plans = plan_entrants(8, broken=3)
    plan = next(p for p in plans if p.kind == "python" and p.fault == fault)
    kits = BuiltKits({"python": {"bot.py": EXAMPLE.read_bytes()}}, {})
    files = upload_files(plan, kits, 0.25)
    assert files["handicap.txt"] == b"0.2500\n"
    if fault is not None:
        assert files["handicap_bot.py"] == EXAMPLE.read_bytes()
        assert f'FAULT = "{fault}"'.encode() in files["bot.py"]
    package = inspect_upload(f"{plan.name}.tar.gz", pack(files))
    assert (package.module, package.bot_kind) == ("bot.py", "python")
    assert set(package.files) == set(files)


@pytest.mark.parametrize(
    ("option", "value"),
    [("--broker", "reddis"), ("--broker", "mysql://x/y"), ("--database", "mysql://x/y")],
)
def test_a_broker_or_database_it_cannot_run_on_is_refused_before_anything_starts(
    option: str, value: str
) -> None:
    """A typo says which values there are (a usage error, exit 2), and nothing starts: no
    kit build, no server."""
    from click.testing import CliRunner

    from arena.commands.rehearsal import rehearsal

    result = CliRunner().invoke(rehearsal, [option, value])
    assert result.exit_code == 2, result.output
    assert f"Invalid value for {option}: '{value}'" in result.output
    assert "sqlite, postgresql" in result.output or "embedded, sql, redis" in result.output
    assert "building" not in result.output and result.exception is not None


def test_a_server_it_cannot_start_is_said_plainly(monkeypatch: pytest.MonkeyPatch) -> None:
    """No PostgreSQL installed (or a kit that does not build): one line saying so, exit 1,
    no traceback."""
    from click.testing import CliRunner

    import workers.rehearsal
    from arena.commands.rehearsal import rehearsal
    from workers.scratch_servers import ScratchServerError

    def missing(*args: object, **kwargs: object) -> None:
        raise ScratchServerError("no PostgreSQL server to start: initdb is not installed")

    monkeypatch.setattr(workers.rehearsal, "rehearse", missing)
    result = CliRunner().invoke(rehearsal, ["--database", "postgresql"])
    assert result.exit_code == 1, result.output
    assert "Error: no PostgreSQL server to start: initdb is not installed" in result.output
    assert "Traceback" not in result.output
