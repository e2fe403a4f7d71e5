"""The two dashboards' PromQL, and the metric names our code registers.

The console dashboard (deploy/prometheus/consoles/arena.html and its library) writes each
expression as a double-quoted literal: an argument of ``args``/``printf``/``query`` in a
template action, or a string of a graph's ``expr`` list in its script. The Grafana
dashboard (deploy/grafana/dashboards/arena.json) has them in its panels' targets.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONSOLE = ROOT / "deploy" / "prometheus" / "consoles" / "arena.html"
CONSOLE_LIBRARY = ROOT / "deploy" / "prometheus" / "console_libraries" / "arena.lib"
GRAFANA = ROOT / "deploy" / "grafana" / "dashboards" / "arena.json"

# Grafana's own variables in an expression, and what Prometheus is given for each here.
GRAFANA_VARIABLES = {"$__rate_interval": "5m", "$__interval": "1m", "$__range": "1h"}

# PromQL's words that are not metric names.
KEYWORDS = frozenset(
    {"and", "or", "unless", "bool", "offset", "by", "without", "on", "ignoring"}
    | {"group_left", "group_right", "inf", "nan", "atan2"}
)
# Series Prometheus makes itself for every target (not exported by anyone's code).
PROMETHEUS_OWN = frozenset({"up", "scrape_duration_seconds", "scrape_samples_scraped"})

_LITERAL = r'"((?:[^"\\]|\\.)*)"'
_TEMPLATE_ARGUMENT = re.compile(r"\b(?:printf|query)\s+" + _LITERAL)
_STAT = re.compile(r'template "arena_stat" \(args ((?:\s*"(?:[^"\\]|\\.)*")+)\s*\)')
_STAT_EXPRESSIONS = (0, 4)  # arena_stat's (args EXPR TITLE RENDER SUFFIX WARN)
_SCRIPT_EXPR = re.compile(r"\bexpr:\s*\[(.*?)\]\s*,\s*\n", re.DOTALL)


def console_expressions() -> list[str]:
    """Every PromQL expression of the console dashboard (with printf's %s as a value)."""
    text = CONSOLE.read_text()
    found = [m.group(1) for m in _TEMPLATE_ARGUMENT.finditer(text)]
    for stat in _STAT.finditer(text):
        arguments = re.findall(_LITERAL, stat.group(1))
        found.extend(arguments[i] for i in _STAT_EXPRESSIONS if i < len(arguments))
    for block in _SCRIPT_EXPR.finditer(text):
        found.extend(m.group(1) for m in re.finditer(_LITERAL, block.group(1)))
    return [expression.replace("%s", "1") for expression in found]


def grafana_expressions() -> list[str]:
    """Every PromQL expression of the Grafana dashboard, its variables replaced."""
    dashboard = json.loads(GRAFANA.read_text())

    def panels(items: list[dict[str, object]]) -> Iterator[dict[str, object]]:
        for panel in items:
            yield panel
            nested = panel.get("panels")
            if isinstance(nested, list):
                yield from panels(nested)

    found = []
    for panel in panels(dashboard["panels"]):
        targets = panel.get("targets")
        for target in targets if isinstance(targets, list) else ():
            expression = str(target["expr"])
            for variable, value in GRAFANA_VARIABLES.items():
                expression = expression.replace(variable, value)
            found.append(expression)
    return found


def metric_names(expression: str) -> set[str]:
    """The metric names an expression selects: what is left once strings, label matchers,
    ranges, grouping clauses, functions, numbers and keywords are taken out.

    >>> sorted(metric_names("60 * sum by (status) (rate(arena_x_total{a='b'}[5m])) or vector(0)"))
    ['arena_x_total']
    >>> sorted(metric_names("max(a) / on (job) group_left (le) b offset 5m > 0.5"))
    ['a', 'b']
    """
    text = re.sub(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'", "''", expression)
    text = re.sub(r"\{[^}]*\}", " ", text)
    text = re.sub(r"\[[^\]]*\]", " ", text)
    text = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", text)
    text = re.sub(r"\boffset\s+\w+", " ", text)
    names = set()
    for match in re.finditer(r"(?<![\w.])([A-Za-z_:][\w:]*)(\s*\()?", text):
        name, call = match.group(1), match.group(2)
        if call or name.lower() in KEYWORDS:
            continue
        names.add(name)
    return names
