"""The option-key codec (``tcgcore.option_key``, ``parse_key``, ``Key``, ``card_option``) and
resume handlers that receive parsed keys (``GameSpec.resumes``)."""

from __future__ import annotations

from typing import Any, Union

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tcgcore
from tcgcore import Engine, Key, Option, Step
from tcgcore.examples import sparks

_TEXT = st.text(alphabet=st.characters(blacklist_characters=":", codec="utf-8"), max_size=8)
_VERB = _TEXT.filter(bool)
_PART = st.one_of(st.integers(-10**12, 10**12), _TEXT)


@given(_VERB, st.lists(_PART, max_size=4))
def test_a_built_key_parses_back_to_its_verb_and_parts(verb: str, parts: list[int | str]) -> None:
    key = tcgcore.option_key(verb, *parts)
    parsed = tcgcore.parse_key(key)
    assert parsed == Key(verb, tuple(str(p) for p in parts))
    assert parsed.text_key() == key
    for i, part in enumerate(parts):
        assert parsed.text(i) == str(part)
        if isinstance(part, int):
            assert parsed.number(i) == part


def test_keys_of_the_documented_shapes() -> None:
    assert tcgcore.option_key("end") == "end"
    assert tcgcore.option_key("play", 34, 0) == "play:34:0"
    assert tcgcore.parse_key("event:30:up") == Key("event", ("30", "up"))
    assert tcgcore.parse_key("play:34:0").card == 34
    assert tcgcore.parse_key("move:-1").number() == -1


@pytest.mark.parametrize("verb, parts", [
    ("", ()), ("a:b", ()), ("card", ("x:y",)), ("card", (True,)), ("card", (1.5,)),
])
def test_a_key_that_would_not_parse_back_is_refused(verb: str, parts: tuple[Any, ...]) -> None:
    with pytest.raises(tcgcore.EngineError, match="option key"):
        tcgcore.option_key(verb, *parts)


def test_reading_a_missing_or_non_numeric_part_raises_naming_the_key() -> None:
    key = tcgcore.parse_key("code:hunter_b9")
    with pytest.raises(tcgcore.EngineError, match="'code:hunter_b9': part 0"):
        key.number(0)
    with pytest.raises(tcgcore.EngineError, match="has no part 1"):
        key.text(1)
    with pytest.raises(tcgcore.EngineError, match="has no part 0"):
        tcgcore.parse_key("end").card  # noqa: B018 - the property raises


def test_number_and_text_read_the_first_part_after_the_verb_by_default() -> None:
    key = tcgcore.parse_key("play:34:0")
    assert key.number() == 34 and key.text() == "34"
    assert tcgcore.parse_key("move:-7:2").number() == -7


@pytest.mark.parametrize("part", ["x9", "-", "--1", "9-", "-x"])
def test_a_part_that_is_not_a_decimal_integer_is_refused_by_number(part: str) -> None:
    key = tcgcore.parse_key(f"code:{part}")
    with pytest.raises(tcgcore.EngineError, match="is not an integer"):
        key.number()


def test_a_parsed_key_is_immutable_and_hashable() -> None:
    key = tcgcore.parse_key("play:34:0")
    with pytest.raises(AttributeError):
        key.verb = "end"  # type: ignore[misc]
    assert {key: 1}[tcgcore.parse_key("play:34:0")] == 1


def test_card_option_names_the_card_as_the_first_key_part_and_as_the_option_card() -> None:
    option = tcgcore.card_option("play", 34, "Knife", 0)
    assert option == Option(key="play:34:0", label="Knife", card=34)
    with_data = tcgcore.card_option("card", 7, "Ember (1)", data={"target": 3})
    assert with_data.key == "card:7" and with_data.card == 7 and with_data.data == {"target": 3}
    assert tcgcore.parse_key(with_data.key).card == with_data.card
    for verb, card in (("a:b", 1), ("", 1), ("card", True)):
        with pytest.raises(tcgcore.EngineError, match="option key"):
            tcgcore.card_option(verb, card, "x")


# ---------------------------------------------------------------- GameSpec.resumes


class Ask(Step, tag="keys_test.ask"):
    """Ask seat 0 to pick two of three cards."""


class Picked(Step, tag="keys_test.picked"):
    """Resume step: log the parsed answer."""


KeyStep = Union[tcgcore.CoreStep, Ask, Picked]  # noqa: UP007


class KeyState(tcgcore.GameState[KeyStep], kw_only=True):
    log: list[str] = []


Eng = Engine[KeyState]


def _setup(eng: Eng, options: dict[str, Any]) -> None:
    eng.add_zone("hand", "hand", owner=0)
    for code in ("a", "b", "c"):
        eng.add_card(code, 0, "hand")
    eng.push(Ask())


spec: tcgcore.GameSpec[KeyState] = tcgcore.GameSpec(
    name="keys_test", version="1.0.0", state_type=KeyState, setup=_setup, players=(1, 1))


@spec.handles(Ask)
def _ask(eng: Eng, step: Ask) -> None:
    options = [tcgcore.card_option("pick", cid, code, "up") for cid, code in enumerate("abc")]
    eng.ask(0, "pick", "Pick two", options, min=2, max=2, resume=Picked())


@spec.resumes(Picked)
def _picked(eng: Eng, step: Picked, answer: list[Key]) -> None:
    eng.state.log += [f"{key.verb} {key.card} {key.text(1)}" for key in answer]
    eng.end(winners=[0], reason="done")


_Plugin = type("KeysPlugin", (), {"tcgcore_games": tcgcore.hookimpl(lambda: [spec])})


def test_a_resume_handler_receives_the_chosen_keys_parsed_in_answer_order() -> None:
    reg = tcgcore.load_registry(load_entrypoints=False, plugins=[_Plugin])
    match: tcgcore.Match[KeyState] = tcgcore.new_match("keys_test", seed=1, registry=reg)
    match.choose(0, ["pick:2:up", "pick:0:up"])
    assert match.state.log == ["pick 2 up", "pick 0 up"]


def test_a_resume_step_registered_with_resumes_is_a_resume_step_of_the_spec() -> None:
    assert spec.resume_steps == frozenset({Picked})
    assert sparks.spec.resume_steps == frozenset({sparks.MulliganAnswer, sparks.SetCardAnswer})
    with pytest.raises(tcgcore.EngineError, match="already has a handler"):
        spec.resumes(Picked)(_picked)
