"""Playing at a person's pace in the browser, and checking what each phone shows after every
picture: the acting player's dice and choices are never covered.

A helper module for the browser tests (not a test file).  Each phone gets a script that, after
every room picture the page draws (the page's ``scc:drawn`` event), waits until the dice have
landed (no dice in the air, ``html[data-moving]``, and no finite animation running) and then asks
``document.elementFromPoint`` at the centre of every die on the felt and, on the acting
player's phone, of every choice button: the element there must be that die or button (or
something inside it).  Every miss is kept in ``window.__scc.bad`` with what covered it.

The people choose by one fixed policy (:func:`choose`), 1.0-2.5 s after the choice reaches
their phone; :func:`simulate` plays the same policy with the engine and the server's fair dice,
so a test can say why its seed gives the table it needs (a tie-break, a captain's split).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from shipcaptaincrew.actions import parse_action
from shipcaptaincrew.engine import apply, initial_state, is_chance, sample_chance
from shipcaptaincrew.fair import FairDice
from shipcaptaincrew.rules import Rules
from shipcaptaincrew.web.display.state_view import state_view

from .browsing import CHOICE

#: Installed in every phone's page before its scripts run (see the module docstring).
UNCOVERED_JS = """
(() => {
  const out = window.__scc = { drawn: 0, checked: 0, bad: [], settle: [] };
  let newest = 0;
  const finite = (a) => a.playState === 'running' && isFinite(a.effect.getComputedTiming().endTime);
  const still = () => !document.documentElement.dataset.moving && !document.getAnimations().some(finite);
  const describe = (el) => el ? `${el.tagName.toLowerCase()}#${el.id}.${[...el.classList].join('.')}` : 'nothing';
  function check(version) {
    const items = [...document.querySelectorAll('#felt [data-testid=die]')].map((el) => ['die', el]);
    if (document.querySelector('[data-testid=your-turn]'))
      items.push(...[...document.querySelectorAll('#actions button[data-action]')].map((el) => ['choice', el]));
    for (const [kind, el] of items) {
      const r = el.getBoundingClientRect();
      if (!r.width || !r.height) continue;  // folded away: not drawn
      const x = r.left + r.width / 2, y = r.top + r.height / 2;
      const hit = document.elementFromPoint(x, y);
      if (!hit || !(hit === el || el.contains(hit)))
        out.bad.push({ version, kind, what: el.dataset.face || el.dataset.action, x: Math.round(x), y: Math.round(y),
                       covered_by: describe(hit), width: innerWidth, height: innerHeight });
    }
    out.checked += 1;
  }
  document.addEventListener('scc:drawn', (e) => {
    const version = e.detail.version;
    const token = ++newest;
    out.drawn += 1;
    const start = performance.now();
    const wait = () => {
      if (token !== newest) return;  // a newer picture came: it is checked instead
      if (still() || performance.now() - start > 4000) {
        out.settle.push(Math.round(performance.now() - start));
        check(version);
      } else setTimeout(wait, 40);
    };
    setTimeout(wait, 40);
  });
})();
"""


def watch(page: Any) -> Any:
    """Install the check on a page (before it loads the table)."""
    page.add_init_script(UNCOVERED_JS)
    return page


def report(page: Any) -> dict[str, Any]:
    """What the check saw on a page: pictures drawn, checked, and every covered element."""
    return dict(page.evaluate("window.__scc || {drawn: 0, checked: 0, bad: [], settle: []}"))


# -- the people's policy ----------------------------------------------------------------------


def choose(match: dict[str, Any], options: dict[str, Any]) -> str | dict[int, int]:
    """What a person at these tables does with the choices the picture offers: roll; stand
    from 7 (else reroll the cargo); share the captain's sips out in one move, round the table
    (under ``up_to`` all but one, then stop); otherwise the first choice.  A dict is a split
    (seat -> sips), made with the steppers."""
    legal = match["legal"]
    if legal == ["roll"]:
        return "roll"
    if match["phase"] == "hand_out":
        split = match["split"]
        up_to = "sip:stop" in legal
        if split and split["most"] >= 2:
            give = split["most"] - (1 if up_to else 0)
            shares: dict[int, int] = {}
            for i in range(give):
                seat = split["seats"][i % len(split["seats"])]
                shares[seat] = shares.get(seat, 0) + 1
            return shares
        return "sip:stop" if up_to else legal[0]
    if match["phase"] == "another_round":
        return "stop"
    turn = match["turn"]
    rerolls = [a for a in legal if a.startswith("reroll")]
    if "stand" in legal:
        return "stand" if turn["score"] >= 7 or not rerolls else rerolls[0]
    return legal[0]


def split_text(shares: dict[int, int]) -> str:
    """A split as the engine writes it (``sip:SEATxN,...``, seats in order)."""
    return "sip:" + ",".join(f"{s}x{n}" for s, n in sorted(shares.items()))


@dataclass
class Simulated:
    """What a match played by :func:`choose` with a seed's fair dice brings."""

    phases: set[str] = field(default_factory=set)
    splits: list[str] = field(default_factory=list)
    winner: int | None = None
    steps: int = 0


def simulate(rules: str, players: int, seed: str) -> Simulated:
    """The match the browser will see: every seat a person playing :func:`choose`, the dice
    the server rolls from ``seed`` (no client seed), the roll-off first."""
    r = Rules.from_str(rules)
    state = initial_state(r, players)
    dice = FairDice(bytes.fromhex(seed), [])
    seen = Simulated()
    while not state.is_over:
        seen.phases.add(state.phase.value)
        if is_chance(state):
            action = sample_chance(state, dice)
        else:
            picked = choose(state_view(state, results=False), r.options())
            text = split_text(picked) if isinstance(picked, dict) else picked
            if isinstance(picked, dict):
                seen.splits.append(text)
            action = parse_action(text)
        state = apply(state, action)
        seen.steps += 1
    seen.winner = state.winner
    return seen


# -- playing at a person's pace ---------------------------------------------------------------


def picture(base: str, code: str) -> dict[str, Any]:
    """The table's picture as the server has it now (texts in English)."""
    return dict(httpx.get(f"{base}/api/rooms/{code}", params={"lang": "en"}, timeout=10).json())


def sharers(page: Any) -> list[int]:
    """The seats the captain's split can give sips to, as its steppers list them (the split's
    box opened if it is closed)."""
    if not page.locator(".sips-share").evaluate("el => el.open"):
        page.click(".sips-share summary")
    seats: list[int] = page.locator(".sips-share .step.more").evaluate_all(
        "els => els.map((b) => +b.dataset.seat)"
    )
    return seats


def share_out(page: Any, shares: dict[int, int]) -> None:
    """The captain's split set on the steppers as a person taps it (seat -> sips; a seat left
    out gets none), not sent yet."""
    for step in ("less", "more"):  # (what a refusal left there first comes off)
        for seat in sharers(page):
            now, want = int(page.inner_text(f"#share-{seat}")), shares.get(seat, 0)
            for _ in range(now - want if step == "less" else want - now):
                page.click(f".sips-share .step.{step}[data-seat='{seat}']")


def act(page: Any, choice: str | dict[int, int]) -> None:
    """Make a choice on a page the way a person does: a button, or the steppers and their
    button for a split."""
    if isinstance(choice, dict):
        share_out(page, choice)
        page.click("#share-go")
        return
    page.click(f"{CHOICE}[data-action='{choice}']", timeout=5000)


def play_human(
    base: str,
    code: str,
    seats: dict[int, Any],
    *,
    rng: random.Random,
    limit: float = 900.0,
    on_turn: Callable[[Any, int, dict[str, Any]], None] | None = None,
    on_choice: Callable[[Any, int, dict[str, Any], Any], None] | None = None,
    on_end: Callable[[], None] | None = None,
    policy: Callable[[int, dict[str, Any]], str | None] | None = None,
) -> dict[str, Any]:
    """The people at ``seats`` (seat -> page) play until the podium shows on every page: each
    choice 1.0-2.5 s after it reached the phone.  ``on_turn(page, seat, room)`` runs when a
    choice first shows on a phone, ``on_choice(page, seat, room, choice)`` just before it is
    made, ``on_end()`` as soon as the server has the match over (the deciding roll is on the
    phones, the podium not yet); ``policy(seat, room)``, where it gives a choice, is that
    person's instead of :func:`choose`'s (a scripted mistake); returns the final picture."""
    deadline = time.monotonic() + limit
    seen_at: dict[int, int] = {}
    first = next(iter(seats.values()))
    while time.monotonic() < deadline:
        room = picture(base, code)
        match = room["match"]
        if match is None or match["over"]:
            if match is not None:
                if on_end is not None:
                    on_end()
                for page in seats.values():
                    page.wait_for_selector("[data-testid=podium]", timeout=30000)
                return room
            first.wait_for_timeout(100)
            continue
        seat = match["actor"]
        page = seats.get(seat)
        if page is None or room["played_for"] is not None:
            first.wait_for_timeout(100)  # a bot's move, or one played for someone away
            continue
        try:
            page.wait_for_selector(CHOICE, timeout=5000)
        except Exception:
            continue  # the picture moved on meanwhile: look again
        if picture(base, code)["version"] != room["version"]:
            continue
        if seen_at.get(seat) != room["version"]:
            seen_at[seat] = room["version"]
            if on_turn is not None:
                on_turn(page, seat, room)
        page.wait_for_timeout(rng.uniform(1000, 2500))  # a person reads, then taps
        scripted = policy(seat, room) if policy is not None else None
        choice = scripted if scripted is not None else choose(match, room["options"])
        if on_choice is not None:
            on_choice(page, seat, room, choice)
        act(page, choice)
        _wait_for_new(base, code, room["version"])
    raise AssertionError("the match did not end in time")


def _wait_for_new(base: str, code: str, version: int, limit: float = 30.0) -> None:
    """Until the server has taken the move (a newer picture)."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if picture(base, code)["version"] > version:
            return
        time.sleep(0.05)
    raise AssertionError(f"the move after version {version} was not taken")
