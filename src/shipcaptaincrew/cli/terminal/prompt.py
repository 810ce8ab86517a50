"""Prompts that survive anything a table of friends types.

Every question loops until it gets an answer it can use: letters where a number belongs, an
empty line, a number out of range, the wrong count of dice faces -- each gets one clear line
saying what is wrong and the same question again.  End of input (Ctrl-D) or ``q`` raises
:class:`QuitMatch`, which the match loop turns into a clean ending (the event log is already on
disk, line by line); Ctrl-C does the same through :class:`KeyboardInterrupt`.  A refusal of
the core (a :class:`~shipcaptaincrew.errors.GameError`, e.g. a rule set that cannot work) is
said in the player's language.

The answers come from the keyboard, or -- ``--script FILE`` -- from a file with one answer a
line, read through the very same questions and checks: a line that is no answer is refused
like a typo and the next line is read, and the end of the file is the end of input.  Each
scripted answer is printed after its question, so the screen reads as if it had been typed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TypeVar, cast

from rich.console import Console
from rich.markup import escape

from ...i18n import _
from ...messages import NP_
from ...options import FALSE_WORDS, TRUE_WORDS
from ..common import error_text, plural

__all__ = ["ADVICE", "Prompter", "QuitMatch", "parse_int", "yes_no_words"]

T = TypeVar("T")

#: What :meth:`Prompter.choose` returns when the player typed ``?``.
ADVICE = -1

_QUIT_WORDS = {"q", "quit", "exit", "beenden", "avslutt"}


#: Counted words of the faces question.
_TYPE_FACES = NP_(
    "Type the face you rolled, e.g. {example}.", "Type the {n} faces you rolled, e.g. {example}."
)
_TYPED = NP_("You typed one face", "You typed {n} faces")
_ROLLED = NP_(
    "{typed}, but one die is rolled: type exactly one.",
    "{typed}, but {n} dice are rolled: type exactly {n}.",
)


def _not_an_answer(text: str, n: int, words: Mapping[str, int] | None) -> str:
    """Why ``text`` answers no menu of ``n`` choices: a number was expected, or, where the
    menu takes words too, one of them (named when they are few)."""
    if not words:
        return _("'{text}' is not a number: type a number from 1 to {n}.").format(text=text, n=n)
    if len(words) <= 6:
        return _("'{text}' is not an answer here: type a number from 1 to {n} or {words}.").format(
            text=text, n=n, words=", ".join(words)
        )
    return _("'{text}' is not an answer here: type a number from 1 to {n}.").format(text=text, n=n)


class QuitMatch(Exception):
    """The players ended the match (end of input or ``q``)."""


def yes_no_words(yes: int = 0, no: int = 1) -> dict[str, int]:
    """Answers to a yes/no menu in any of our languages (yes/no, ja/nein, ja/nei, y/n, ...).

    The option table's spellings and the active language's own "yes" and "no"; digits are
    left to the menu's numbers.
    """
    words = {w: yes for w in (*TRUE_WORDS, _("yes").lower()) if not w.isdigit()}
    words |= {w: no for w in (*FALSE_WORDS, _("no").lower()) if not w.isdigit()}
    return words


def parse_int(text: str, lo: int, hi: int) -> int:
    """A whole number in ``lo..hi``; else a :class:`ValueError` saying what to type."""
    try:
        k = int(text)
    except ValueError:
        raise ValueError(
            _("Please type a whole number from {lo} to {hi}.").format(lo=lo, hi=hi)
        ) from None
    if not lo <= k <= hi:
        raise ValueError(
            _("{k} is out of range: type a number from {lo} to {hi}.").format(k=k, lo=lo, hi=hi)
        )
    return k


class Prompter:
    """Asks questions on a Rich console; answers come from ``input()`` or from ``answers``."""

    def __init__(self, console: Console, answers: Iterator[str] | None = None) -> None:
        self.console = console
        self.answers = answers

    def _read(self, prompt: str) -> str:
        if self.answers is None:
            return self.console.input(f"[bold]{escape(prompt)}[/] ")
        text = next(self.answers, None)
        if text is None:  # the script ends: the question stays on screen, unanswered
            self.console.print(f"[bold]{escape(prompt)}[/]")
            raise EOFError
        self.console.print(f"[bold]{escape(prompt)}[/] {escape(text)}")
        return text

    def line(self, prompt: str) -> str:
        """One line of input (stripped); end of input or ``q`` ends the match."""
        try:
            text = self._read(prompt)
        except EOFError:
            self.console.print()
            raise QuitMatch from None
        text = text.strip()
        if text.lower() in _QUIT_WORDS:
            raise QuitMatch
        return text

    def complain(self, message: str | BaseException) -> None:
        """One line saying what was wrong with the answer (a refusal in the player's language)."""
        text = message if isinstance(message, str) else error_text(message)
        self.console.print(f"[red]{escape(text)}[/]")

    def ask(self, prompt: str, parse: Callable[[str], T]) -> T:
        """Ask until ``parse`` accepts the answer; its ``ValueError`` is the complaint."""
        while True:
            text = self.line(prompt)
            try:
                return parse(text)
            except ValueError as e:
                self.complain(e)

    def _menu(self, options: Sequence[str], headings: Mapping[int, str] | None) -> None:
        width = len(str(len(options)))
        for i, text in enumerate(options):
            if headings and i in headings:
                self.console.print(f"[bold]{escape(headings[i])}[/]")
            self.console.print(f"  [bold cyan]{i + 1:>{width}}[/]  {escape(text)}")

    def choose(
        self,
        prompt: str,
        options: Sequence[str],
        *,
        advice: bool = False,
        default: int | None = None,
        headings: Mapping[int, str] | None = None,
        words: Mapping[str, int] | None = None,
    ) -> int:
        """A numbered menu; returns the index chosen (or :data:`ADVICE` for ``?``).

        ``headings`` maps an index to a heading printed above that option; ``words`` maps
        other accepted answers (an action's canonical text, ``ja`` or ``nei``; lower case) to
        the index they choose.
        """
        self._menu(options, headings)
        if advice:
            label = _("advice: the solver rates each choice")
            self.console.print(f"  [bold cyan]?[/]  {escape(label)}")
        enter = None if default is None else _("Enter = {n}").format(n=default + 1)
        k = self._pick(
            prompt, len(options), advice=advice, enter=enter, default=default, words=words
        )
        assert isinstance(k, int)  # Enter is an answer only when it has a default
        return k

    def choose_or(
        self,
        prompt: str,
        options: Sequence[str],
        other: Callable[[str], T],
        *,
        words: Mapping[str, int] | None = None,
    ) -> int | T:
        """:meth:`choose`, where an answer that is no number goes to ``other`` (its value, or
        its ``ValueError`` as the complaint): the captain's split of several sips."""
        self._menu(options, None)
        k = self._pick(
            prompt, len(options), advice=False, enter=None, default=None, words=words, other=other
        )
        return cast("int | T", k)

    def pick(
        self,
        prompt: str,
        options: Sequence[str],
        *,
        enter: str,
        headings: Mapping[int, str] | None = None,
    ) -> int | None:
        """A numbered menu where Enter means ``enter`` (e.g. "start"): the index, or None."""
        self._menu(options, headings)
        hint = _("Enter = {n}").format(n=enter)
        k = self._pick(prompt, len(options), advice=False, enter=hint, default=None)
        assert k is None or isinstance(k, int)
        return k

    def _pick(
        self,
        prompt: str,
        n: int,
        *,
        advice: bool,
        enter: str | None,
        default: int | None,
        words: Mapping[str, int] | None = None,
        other: Callable[[str], object] | None = None,
    ) -> object:
        hint = f"1-{n}" + (", ?" if advice else "") + (f", {enter}" if enter else "")

        def parse(text: str) -> object:
            if text == "?" and advice:
                return ADVICE
            if words and text.lower() in words:
                return words[text.lower()]
            if text == "" and enter is not None:
                return default
            if not text:
                raise ValueError(_("Please type a number from 1 to {n}.").format(n=n))
            try:
                k = int(text)
            except ValueError:
                if other is not None:
                    return other(text)
                raise ValueError(_not_an_answer(text, n, words)) from None
            if not 1 <= k <= n:
                raise ValueError(
                    _("{k} is not on the list: type a number from 1 to {n}.").format(k=k, n=n)
                )
            return k - 1

        return self.ask(f"{prompt} [{hint}]", parse)

    def integer(self, prompt: str, lo: int, hi: int, default: int | None = None) -> int:
        """A whole number in ``lo..hi`` (Enter takes the default when there is one)."""

        def parse(text: str) -> int:
            if text == "" and default is not None:
                return default
            return parse_int(text, lo, hi)

        enter = ", " + _("Enter = {n}").format(n=default) if default is not None else ""
        suffix = f" [{lo}-{hi}{enter}]"
        return self.ask(prompt + suffix, parse)

    def press_enter(self, prompt: str) -> None:
        """Wait for Enter (a person rolls), so nothing that happens next flashes past."""

        def parse(text: str) -> None:
            if text:
                raise ValueError(_("Press Enter to roll (q ends the match)."))

        self.ask(prompt, parse)

    def faces(self, prompt: str, n: int) -> tuple[int, ...]:
        """``n`` dice faces typed as digits (spaces, commas and dashes allowed)."""

        def parse(text: str) -> tuple[int, ...]:
            digits = [c for c in text if c not in " ,;-/"]
            if not digits:
                example = "".join(str(6 - i % 6) for i in range(n))
                raise ValueError(plural(_TYPE_FACES, n, example=example))
            bad = [c for c in digits if c not in "123456"]
            if bad:
                raise ValueError(
                    _("'{bad}' is not a die face: faces are 1 to 6.").format(bad=bad[0])
                )
            if len(digits) != n:
                typed = plural(_TYPED, len(digits))
                raise ValueError(plural(_ROLLED, n, typed=typed))
            return tuple(int(c) for c in digits)

        return self.ask(prompt, parse)
