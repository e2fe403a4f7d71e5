"""No import circle anywhere in the tree: arena, workers, web and the SDK's hearts_bot.

import-linter's `acyclic_siblings` contract (pyproject.toml) refuses a circle between
siblings, at every depth; it cannot see one between a package and a module inside it (a
package's `__init__` that imports a module which imports the package back, as `web.api`
did). This test builds the same graph with grimp (which import-linter runs on) and
refuses every circle, whatever the modules' places.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import grimp

PACKAGES = ("arena", "workers", "web", "hearts_bot")


def circles(modules: Iterable[str], imported_by: Callable[[str], set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, without
    recursion): each is a set of modules that import each other, directly or not."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(modules):
        if root in index:
            continue
        work = [(root, iter(sorted(imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, edges = work[-1]
            for other in edges:
                if other not in index:
                    index[other] = low[other] = len(index)
                    stack.append(other)
                    on_stack.add(other)
                    work.append((other, iter(sorted(imported_by(other)))))
                    break
                if other in on_stack:
                    low[module] = min(low[module], index[other])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[module])
                if low[module] == index[module]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == module:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
    return found


def describe(graph: grimp.ImportGraph, group: list[str]) -> str:
    """One circle of `group`, module by module, with the lines that import."""
    first, second = group[0], group[1]
    there = graph.find_shortest_chain(first, second) or (first, second)
    back = graph.find_shortest_chain(second, first) or (second, first)
    chain = list(there) + list(back[1:])
    return " -> ".join(chain) + f"  (the group: {', '.join(group)})"


def test_no_import_circle_anywhere_in_the_tree() -> None:
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    found = circles(graph.modules, graph.find_modules_directly_imported_by)
    assert not found, "import circles:\n" + "\n".join(describe(graph, g) for g in found)


def test_the_circle_finder_finds_a_package_importing_its_own_module_back() -> None:
    graph = grimp.ImportGraph()
    for importer, imported in (
        ("shop", "shop.routes"),
        ("shop.routes", "shop"),  # the package's __init__ and its module: web.api's shape
        ("shop.routes", "shop.models"),
        ("shop.models", "shop.money"),
        ("shop.money", "shop.models"),
        ("shop.money", "decimal"),
    ):
        graph.add_import(importer=importer, imported=imported)
    found = circles(graph.modules, graph.find_modules_directly_imported_by)
    assert found == [["shop.models", "shop.money"], ["shop", "shop.routes"]]
    assert (
        describe(graph, found[1]) == "shop -> shop.routes -> shop  (the group: shop, shop.routes)"
    )
