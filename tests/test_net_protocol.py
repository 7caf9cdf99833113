"""The wire schema: strict, and nothing a peer sends can crash the decoder."""

import asyncio
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gin3d.net.group import ORDER
from gin3d.net.protocol import (
    HEADER,
    MAX_FRAME,
    SCHEMAS,
    ProtocolError,
    decode,
    encode,
    read_frame,
    validate,
)

GOOD = {"t": "act", "seq": 3, "hand": 0, "a": "discard 7H", "prev": "ab" * 32, "keys": [[4, "1f"]]}


def test_round_trip():
    assert decode(encode(GOOD)[4:]) == GOOD


@pytest.mark.parametrize(
    "change, message",
    [
        ({"extra": 1}, "unknown field"),
        ({"t": "nope"}, "unknown message type"),
        ({"keys": [[52, "1f"]]}, "52"),
        ({"keys": [[-1, "1f"]]}, "0..51"),
        ({"keys": [[4, "0"]]}, "key"),
        ({"keys": [[4, format(ORDER, "x")]]}, "key"),
        ({"keys": [[4, "1f"], [4, "2f"]]}, "twice"),
        ({"seq": 0}, "seq"),
        ({"seq": True}, "seq"),
        ({"prev": "AB" * 32}, "hex"),
        ({"a": "x" * 41}, "at most"),
        ({"a": "discard\n7H"}, "control"),
    ],
)
def test_bad_fields_are_refused(change, message):
    with pytest.raises(ProtocolError, match=message):
        validate({**GOOD, **change})


def test_missing_field_and_non_objects():
    bad = dict(GOOD)
    del bad["prev"]
    with pytest.raises(ProtocolError, match="lacks"):
        validate(bad)
    for body in (
        b"[]",
        b"3",
        b'"x"',
        b"\xff\xfe",
        b'{"t":"ping","n":1.5}',
        b"{",
        b'{"t":"ping","n":1,"n":2}',
        b'{"t":"ping","n":NaN}',
    ):
        with pytest.raises(ProtocolError):
            decode(body)


def test_deck_points_and_rules_are_checked():
    deck = {"t": "deck", "seq": 1, "hand": 0, "step": 1, "cards": ["00" * 32] * 51}
    with pytest.raises(ProtocolError, match="52"):
        validate(deck)
    setup = {"t": "setup", "seq": 1, "rules": {"knock_limit": -3}, "commit": "00" * 32}
    with pytest.raises(ProtocolError, match="knock_limit"):
        validate(setup)
    setup["rules"] = {"no_such_rule": 1}
    with pytest.raises(ProtocolError, match="no_such_rule"):
        validate(setup)


def test_oversized_frames_are_refused():
    with pytest.raises(ProtocolError, match="large"):
        decode(b" " * (MAX_FRAME + 1))

    async def read_oversized():
        reader = asyncio.StreamReader()
        reader.feed_data(HEADER.pack(MAX_FRAME + 1) + b"x" * 10)
        await read_frame(reader)

    with pytest.raises(ProtocolError, match="limit"):
        asyncio.run(read_oversized())


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_never_crash_the_decoder(data):
    try:
        decode(data)
    except ProtocolError:
        pass


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=70),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=8,
)


@settings(max_examples=120, deadline=None)
@given(
    st.sampled_from(sorted(SCHEMAS)), st.dictionaries(st.text(max_size=8), json_values, max_size=6)
)
def test_random_messages_validate_or_are_refused(kind, fields):
    msg = {**fields, "t": kind}
    try:
        validate(msg)
    except ProtocolError:
        return
    # whatever passes must survive a round trip unchanged
    assert decode(encode(msg)[4:]) == json.loads(json.dumps(msg))
