"""Your turn, when you look elsewhere: a sound, the tab's title, an opt-in browser
notification while the tab is hidden, and a warning sound as your time runs out."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Page, expect

from tests.conftest import Mailbox
from tests.web.conftest import DESKTOP, PHONE, LiveServer, Visitors, signed_in
from tests.web.test_table import create_table_with_bots, sit
from tests.web.test_table_layout import check_or_call, our_turn

# The page's sounds, notifications and visibility, observed: every tone started (its
# frequency), every notification shown (its title); `window.tabHidden` hides the tab.
OBSERVED = """() => {
  window.tones = [];
  window.notes = [];
  // Every title the tab shows (the next turn can come back before a test looks).
  window.titles = [];
  document.addEventListener("DOMContentLoaded", () => {
    new MutationObserver(() => window.titles.push(document.title))
      .observe(document.head, { subtree: true, childList: true, characterData: true });
  });
  class Tone {
    constructor() { this.frequency = { value: 0 }; }
    connect(next) { return next; }
    start() { window.tones.push(this.frequency.value); }
    stop() {}
  }
  class Gain {
    constructor() { this.gain = { setValueAtTime() {}, exponentialRampToValueAtTime() {} }; }
    connect(next) { return next; }
  }
  window.AudioContext = class {
    constructor() { this.currentTime = 0; this.destination = {}; }
    createOscillator() { return new Tone(); }
    createGain() { return new Gain(); }
  };
  class Shown {
    constructor(title) { window.notes.push(title); }
    static permission = "default";
    static async requestPermission() { Shown.permission = "granted"; return "granted"; }
  }
  // The browser's own cannot be assigned over: defined in its place.
  Object.defineProperty(window, "Notification", { value: Shown, configurable: true });
  Object.defineProperty(document, "hidden", { get: () => window.tabHidden === true });
}"""
# The tab is hidden and the browser allowed notifications earlier.
HIDDEN_WITH_PERMISSION = """() => {
  window.tabHidden = true;
  Notification.permission = "granted";
}"""
# Turn alerts were turned on earlier: a setting of the account.
ALERTS_ON = """async () => {
  const { api } = await import("/static/js/api.js");
  await api("PATCH", "/users/me/settings", { turn_alerts: true });
}"""
SETTINGS = """async () => {
  const { api } = await import("/static/js/api.js");
  return (await api("GET", "/users/me")).settings;
}"""


@pytest.fixture
def server_settings() -> dict[str, Any]:
    return {"action_seconds": 8, "min_action_seconds": 5}


async def seated(visitors: Visitors, mailbox: Mailbox, viewport: dict[str, int],
                 *scripts: str, alerts: bool = False) -> Page:
    tab = await visitors.new(viewport=viewport)
    for script in (OBSERVED, *scripts):
        await tab.page.add_init_script(f"({script})()")
    await signed_in(tab, mailbox, "Una")
    if alerts:
        await tab.page.goto("/")
        await tab.page.evaluate(ALERTS_ON)
    await create_table_with_bots(tab.page, name="Alerts", seats=3, bots=2)
    await sit(tab.page, buy_in=1_000)
    return tab.page


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
async def test_your_turn_sounds_shows_in_the_title_and_notifies_a_hidden_tab(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, viewport: dict[str, int]
) -> None:
    page = await seated(visitors, mailbox, viewport, HIDDEN_WITH_PERMISSION, alerts=True)
    await our_turn(page)
    await expect(page).to_have_title("▶ Your turn · Alerts · holdem-server")
    assert 880 in await page.evaluate("window.tones")
    assert await page.evaluate("window.notes") == ["Your turn at Alerts"]
    # Five seconds before the clock runs out, a warning.
    await page.wait_for_function("() => window.tones.includes(440)", timeout=15_000)
    await page.evaluate("window.titles = []")
    await check_or_call(page)
    await page.wait_for_function(
        "() => window.titles.includes('Alerts · holdem-server')"
        " || document.title === 'Alerts · holdem-server'")


async def test_turning_alerts_on_asks_the_browser_and_is_kept(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    page = await seated(visitors, mailbox, DESKTOP)
    notify = page.locator("#notify-toggle")
    await notify.click()
    await expect(notify).to_have_text("Turn alerts on")
    assert await page.evaluate("() => Notification.permission") == "granted"
    # Kept on the account: the next page (or device) reads it from there.
    for _ in range(50):
        if (await page.evaluate(SETTINGS))["turn_alerts"]:
            break
        await page.wait_for_timeout(100)
    assert (await page.evaluate(SETTINGS))["turn_alerts"] is True
    await notify.click()
    await expect(notify).to_have_text("Turn alerts off")


async def test_sound_off_stays_off_on_the_next_turn_and_after_a_reload(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    page = await seated(visitors, mailbox, DESKTOP)
    sound = page.locator("#sound-toggle")
    await sound.click()
    await expect(sound).to_have_text("Sound off")
    await page.reload()
    await expect(page.locator("#sound-toggle")).to_have_text("Sound off")
    await our_turn(page)
    await expect(page).to_have_title("▶ Your turn · Alerts · holdem-server")
    assert await page.evaluate("window.tones") == []
