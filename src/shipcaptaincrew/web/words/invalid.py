"""A message that does not fit its form, said in one clear sentence naming the field.

pydantic reports every problem of a request body or a WebSocket message with a type
(``missing``, ``string_too_long``, ...), the field's location and a context; the first
problem becomes one :class:`~.refusals.RoomError` whose sentence names the field as a player
knows it ("Your name must not be empty." / "Dein Name darf nicht leer sein."), in the
request's or the connection's language.  The answer also carries ``field``, the field's key,
so a page can point at the input.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic_core import ErrorDetails, PydanticCustomError

from . import refusals as E
from .catalogue import Label
from .refusals import ErrorCode, RoomError

#: A field's key -> its name in a sentence.
FIELDS: dict[str, str] = {
    "name": E.FIELD_NAME,
    "lang": E.FIELD_LANG,
    "preset": E.FIELD_RULES,
    "settings": E.FIELD_SETTINGS,
    "hints": E.FIELD_HINTS,
    "turn_timer": E.FIELD_TIMER,
    "starter": E.FIELD_STARTER,
    "client_seed": E.FIELD_SEED,
    "dice": E.FIELD_DICE,
    "level": E.FIELD_LEVEL,
    "token": E.FIELD_TOKEN,
    "action": E.FIELD_ACTION,
    "version": E.FIELD_VERSION,
    "faces": E.FIELD_FACES,
    "emoji": E.FIELD_EMOJI,
    "color": E.FIELD_COLOR,
    "avatar": E.FIELD_AVATAR,
    "type": E.FIELD_TYPE,
    "rules": E.FIELD_RULES,
    "seat": E.FIELD_SEAT,
    "crew": E.FIELD_CREW,
}

#: Where a REST problem is (FastAPI's first location part), not a field.
_CONTAINERS = frozenset({"body", "query", "path", "header", "cookie"})

#: pydantic error type -> (sentence, the context key its ``limit`` comes from).
_BY_TYPE: dict[str, tuple[str, str | None]] = {
    "missing": (E.MISSING, None),
    "string_too_short": (E.EMPTY, None),
    "string_too_long": (E.TOO_LONG, "max_length"),
    "too_long": (E.TOO_MANY, "max_length"),
    "string_pattern_mismatch": (E.NOT_ALLOWED_CHARS, None),
    "int_parsing": (E.NOT_A_NUMBER, None),
    "int_type": (E.NOT_A_NUMBER, None),
    "int_from_float": (E.NOT_A_NUMBER, None),
    "string_type": (E.NOT_TEXT, None),
    "bool_type": (E.NOT_A_FLAG, None),
    "bool_parsing": (E.NOT_A_FLAG, None),
    "list_type": (E.NOT_A_LIST, None),
    "greater_than_equal": (E.AT_LEAST, "ge"),
    "less_than_equal": (E.AT_MOST, "le"),
    "blank": (E.BLANK, None),
    # Names a person could not read or tell from a bot (see .names.readable).
    "name_no_letter": (E.NAME_NO_LETTER, None),
    "name_hidden": (E.NAME_HIDDEN, None),
    "name_lone_mark": (E.NAME_LONE_MARK, None),
    "name_marks": (E.NAME_MARKS, None),
    "name_wide": (E.NAME_WIDE, None),
    "name_bot": (E.NAME_BOT, None),
}


def one_of(choices: Sequence[str]) -> PydanticCustomError:
    """The validators' refusal of a value outside a fixed set (a language, a reaction)."""
    return PydanticCustomError(
        "one_of", "must be one of: {choices}", {"choices": ", ".join(choices)}
    )


def blank() -> PydanticCustomError:
    """The name validator's refusal of a name with nothing visible in it."""
    return PydanticCustomError("blank", "needs at least one visible character")


def _field(loc: Sequence[int | str], tagged: bool) -> str | None:
    """The key of the field a problem is in (None: the message as a whole).

    ``tagged``: the location starts with the message's ``type`` (a WebSocket message is one
    of several shapes, told apart by it)."""
    parts = [p for p in loc if isinstance(p, str) and p not in _CONTAINERS]
    if tagged and parts:
        parts = parts[1:]
    return parts[-1] if parts else None


def invalid(
    problems: Sequence[ErrorDetails],
    *,
    tagged: bool = False,
    fields: Mapping[str, str] | None = None,
) -> RoomError:
    """The refusal for the first problem pydantic found (see the module docstring).

    ``fields``: names of fields that mean something else in these requests (a crew's
    ``name`` is the crew's), before :data:`FIELDS`."""
    if not problems:
        return RoomError(ErrorCode.INVALID, E.NOT_VALID, 422, field=Label(E.FIELD_REQUEST))
    first = problems[0]
    kind = first["type"]
    ctx: dict[str, Any] = dict(first.get("ctx") or {})
    if kind == "json_invalid":
        return RoomError(ErrorCode.INVALID, E.NOT_JSON, 422)
    if kind == "union_tag_invalid":
        return RoomError(ErrorCode.INVALID, E.UNKNOWN_TYPE, 422, kind=str(ctx.get("tag", ""))[:24])
    if kind == "union_tag_not_found":
        return RoomError(ErrorCode.INVALID, E.NO_TYPE, 422)
    if kind in ("model_attributes_type", "model_type", "dict_type"):
        return RoomError(ErrorCode.INVALID, E.WRONG_KIND, 422, field=Label(E.FIELD_REQUEST))
    key = _field(first.get("loc", ()), tagged)
    extra = {"field": key} if key else {}
    if kind == "extra_forbidden":
        return RoomError(ErrorCode.INVALID, E.UNKNOWN_FIELD, 422, extra, field=(key or "?")[:32])
    name = Label({**FIELDS, **(fields or {})}.get(key or "", E.FIELD_REQUEST))
    if kind in ("one_of", "literal_error", "enum"):
        choices = ctx.get("choices") or ctx.get("expected") or ""
        return RoomError(ErrorCode.INVALID, E.ONE_OF, 422, extra, field=name, choices=choices)
    sentence, limit = _BY_TYPE.get(kind, (E.NOT_VALID, None))
    params: dict[str, object] = {"field": name}
    if limit is not None:
        params["limit"] = ctx.get(limit, "")
    return RoomError(ErrorCode.INVALID, sentence, 422, extra, **params)
