"""The ladder's house-bot panel says what each house bot is."""

from __future__ import annotations

import html

from arena.bots.descriptions import HOUSE_DESCRIPTIONS


def test_the_house_panel_describes_each_house_bot(client, world):
    page = client.get(f"/seasons/{world.season_id}/ladder").get_data(as_text=True)
    panel = html.unescape(page[page.index('id="house-bots"') :])
    assert "What it is" in panel
    # the world's match seats expert-1 and heuristic-1 (arena.store.bots.ensure_house_bots)
    assert HOUSE_DESCRIPTIONS["expert"] in panel
    assert HOUSE_DESCRIPTIONS["heuristic"] in panel
    assert panel.count('<td class="house-description">') == panel.count('<tr class="house">')
