"""Ladders: rows with Elo ± uncertainty and play figures, sorting, pages, the selector."""

from __future__ import annotations

import re

import pytest

from tests.web.conftest import make_app


def test_home_page_shows_the_top_of_the_featured_season(client, world):
    page = client.get("/").get_data(as_text=True)
    assert "Spring" in page
    assert "shark" in page


def test_ladder_redirects_to_the_featured_or_chosen_season(client, world):
    assert client.get("/ladder").headers["Location"] == f"/seasons/{world.season_id}/ladder"
    chosen = client.get(f"/ladder?season={world.season_id}")
    assert chosen.headers["Location"] == f"/seasons/{world.season_id}/ladder"
    assert client.get("/ladder?season=999").status_code == 404


def test_no_season_no_ladder(client):
    assert client.get("/ladder").status_code == 404


def test_ladder_rows(client, world):
    page = client.get(f"/seasons/{world.season_id}/ladder").get_data(as_text=True)
    rows = re.findall(r"<tr(?: class=\"house\")?>\s*<td>(\d+)", page)
    assert rows == ["1", "2"]  # the two house bots at the table take no rank
    assert "2 ranked bots" in page
    house = page[page.index('id="house-bots"') :]
    assert house.count('<tr class="house">') == 2
    assert "±" in page
    assert 'title="provisional' in page
    assert "25.0" in page  # alice's faults per 100 hands: 2 faults in 8 hands
    assert 'option value="1" selected' in page


@pytest.mark.parametrize(
    "sort", ["rank", "bot", "owner", "elo_error", "games", "points", "moons", "faults"]
)
@pytest.mark.parametrize("order", ["asc", "desc"])
def test_every_order_sorts(client, world, sort, order):
    response = client.get(f"/seasons/{world.season_id}/ladder?sort={sort}&order={order}")
    assert response.status_code == 200
    assert 'aria-sort="' in response.get_data(as_text=True)


def test_sorting_by_points_per_hand_puts_the_fewest_first(client, world):
    page = client.get(f"/seasons/{world.season_id}/ladder?sort=points").get_data(as_text=True)
    figures = [float(x) for x in re.findall(r'<td class="num">(\d+\.\d\d)</td>', page)]
    assert figures == sorted(figures)


def test_bad_sort_order_and_page(client, world):
    base = f"/seasons/{world.season_id}/ladder"
    assert client.get(f"{base}?sort=evil").status_code == 400
    assert client.get(f"{base}?order=sideways").status_code == 400
    assert client.get(f"{base}?page=0").status_code == 404
    assert client.get(f"{base}?page=x").status_code == 404
    assert client.get(f"{base}?page=2").status_code == 404
    assert client.get("/seasons/999/ladder").status_code == 404


def test_pagination(database, world_on_small_pages):
    client = world_on_small_pages
    page1 = client.get("/seasons/1/ladder").get_data(as_text=True)
    assert 'rel="next"' in page1
    page2 = client.get("/seasons/1/ladder?page=2").get_data(as_text=True)
    assert 'rel="prev"' in page2
    assert "Page 2 of 2" in page2


@pytest.fixture
def world_on_small_pages(database, world):
    app = make_app(database, LADDER_PAGE_SIZE=1)
    return app.test_client()
