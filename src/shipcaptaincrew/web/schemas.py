"""Every message a client may send, as pydantic models with size limits.

A WebSocket frame is checked for size before it is parsed, then parsed into exactly one of the
:data:`ClientMessage` shapes; anything else is refused with a message naming the problem.  The
server never accepts dice from a client: no schema has a field for them.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator

LANGS = ("en", "de", "nb")
#: Bot difficulties offered in the room (any spec ``make_bot`` accepts is also allowed).
BOT_LEVELS = ("easy", "medium", "hard", "perfect")

Name = Annotated[str, Field(min_length=1, max_length=32)]
Token = Annotated[str, Field(min_length=16, max_length=128, pattern=r"^[A-Za-z0-9_\-]+$")]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


def _clean_name(value: str) -> str:
    """Names are plain text: control characters go, whitespace collapses (escaping is on output)."""
    text = " ".join("".join(ch for ch in value if ch.isprintable()).split())
    if not text:
        raise ValueError("a name needs at least one visible character")
    return text


class CreateRoom(_Strict):
    """POST /api/rooms."""

    name: Name
    preset: str = Field(default="classic", max_length=64)
    #: Rule options as ``key=value`` texts, e.g. ``["wild_captain=true"]``.
    settings: list[Annotated[str, Field(max_length=64)]] = Field(
        default_factory=list, max_length=20
    )
    lang: Literal["en", "de", "nb"] = "en"
    hints: bool = True
    #: Seconds a person has to act before a safe default is played (None: wait forever).
    turn_timer: int | None = Field(default=None, ge=5, le=600)
    #: Starting seat when the rules say ``starter=chosen``.
    starter: int | None = Field(default=None, ge=0, le=7)
    client_seed: str = Field(default="", max_length=64)

    _name = field_validator("name")(classmethod(lambda cls, v: _clean_name(v)))


class JoinRoom(_Strict):
    """POST /api/rooms/{code}/join."""

    name: Name
    client_seed: str = Field(default="", max_length=64)

    _name = field_validator("name")(classmethod(lambda cls, v: _clean_name(v)))


class AddBot(_Strict):
    """POST /api/rooms/{code}/bots (host only)."""

    level: str = Field(default="medium", min_length=1, max_length=32, pattern=r"^[a-z0-9:.]+$")


class Hello(_Strict):
    """First WebSocket message: who is here (no token: a spectator) and in which language."""

    type: Literal["hello"]
    token: Token | None = None
    lang: Literal["en", "de", "nb"] = "en"


class Act(_Strict):
    """A choice (``stand``, ``reroll``, ``reroll:keep5``, ``take:61``, ``sip:2``) at ``version``."""

    type: Literal["act"]
    action: str = Field(min_length=1, max_length=24, pattern=r"^[a-z0-9:]+$")
    version: int = Field(ge=0)


class RollDice(_Strict):
    """Ask the server to roll the dice that are due (the server picks the faces)."""

    type: Literal["roll"]
    version: int = Field(ge=0)


class Advice(_Strict):
    """Ask for each choice's win probability (refused when the host turned hints off)."""

    type: Literal["advice"]
    version: int = Field(ge=0)


class Ping(_Strict):
    """Keep-alive."""

    type: Literal["ping"]


ClientMessage = Annotated[Hello | Act | RollDice | Advice | Ping, Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[Hello | Act | RollDice | Advice | Ping] = TypeAdapter(ClientMessage)
