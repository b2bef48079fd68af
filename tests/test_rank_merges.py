"""Rank files read fast: the merges and errors of merging each token, the textbook way.

``rank_merges.recover`` finds each token's parts by going back in time from a candidate split;
the reference runs tiktoken's merging on every token (``bpe_split``). Over three bytes, ties and
runs ("aaaa") are everywhere, and most random rank tables are not merge lists at all: both must
refuse the same token with the same message.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core import TokenizerFileError
from bpe_core.cuts import token_texts, whole_tokens
from bpe_core.formats.rank_merges import bpe_split, recover

BYTES = {bytes([b]): b for b in range(256)}


def reference(table: dict[bytes, int]) -> tuple[list[int], list[int]]:
    """The parts of every token by merging it with lower ranks, raising as ``recover`` does."""
    left, right = [], []
    for token, r in sorted(table.items(), key=lambda item: item[1])[256:]:
        parts = bpe_split(token, table, r)
        if len(parts) != 2:
            raise TokenizerFileError(
                f"the ranks: token {r} ({token!r}) is not a merge of two lower-ranked tokens "
                f"(lower ranks split it into {len(parts)} parts), so no merge list reproduces it")
        left.append(table[parts[0]])
        right.append(table[parts[1]])
    return left, right


def outcome(f, table):
    try:
        return f(table)
    except TokenizerFileError as e:
        return str(e)


def fast(table):
    return recover(table)[1:]


@st.composite
def merge_lists(draw):
    """Ranks made by merging two earlier tokens, in a random order: often a merge list that
    tiktoken reproduces, sometimes not."""
    tokens = [b"a", b"b", b"c"]
    for _ in range(draw(st.integers(1, 40))):
        new = draw(st.sampled_from(tokens)) + draw(st.sampled_from(tokens))
        if new not in tokens:
            tokens.append(new)
    return BYTES | {t: 256 + k for k, t in enumerate(tokens[3:])}


ANY_TOKENS = st.lists(st.text("abc", min_size=2, max_size=7), unique=True, max_size=40).map(
    lambda ts: BYTES | {t.encode(): 256 + k for k, t in enumerate(ts)})


@settings(max_examples=400)
@given(table=merge_lists() | ANY_TOKENS)
def test_recovered_merges_are_those_of_merging_each_token(table):
    assert outcome(fast, table) == outcome(reference, table)


def test_the_byte_order_is_read_from_the_first_256_ranks():
    order = [*range(33, 256), *range(33)]
    table = {bytes([b]): r for r, b in enumerate(order)} | {b"ab": 256, b"abc": 257}
    assert recover(table) == ([*map(bytes, zip(order)), b"ab", b"abc"],
                              [order.index(97), 256], [order.index(98), order.index(99)])


def test_a_later_merge_wins_over_an_earlier_split_point():
    # "bc" is learned before "ab": "abc" is a + bc, however its ranks read left to right.
    table = BYTES | {b"bc": 256, b"ab": 257, b"abc": 258, b"abcd": 259}
    assert fast(table) == reference(table) == ([98, 97, 97, 258], [99, 98, 256, 100])


def test_ranks_no_merge_list_reproduces_are_refused():
    # "abcd" has a split into two lower tokens, ab + cd, but merging bc first leaves a|bc|d.
    table = BYTES | {b"bc": 256, b"ab": 257, b"cd": 258, b"abcd": 259}
    with pytest.raises(TokenizerFileError, match=r"token 259 \(b'abcd'\) is not a merge of two "
                                                  r"lower-ranked tokens \(lower ranks split it "
                                                  r"into 3 parts\)"):
        recover(table)


def test_whole_tokens_are_the_texts_of_complete_characters():
    # Byte characters spell bytes ("Ġ" is the space); a token of other characters, an unused
    # id, a part of a character ("ä¸" is two of 中's three bytes) never stand for a piece, and
    # of two ids with one text the first does.
    tokens = ["a", "Ġb", "ä¸", "ä¸Ń", "a", None, "中", "ĠĠ", "ðŁĺĢ"]
    assert whole_tokens(token_texts(tokens)) == {"a": 0, " b": 1, "中": 3, "  ": 7, "😀": 8}
    assert whole_tokens(token_texts([t for t in tokens if t is not None and t != "中"])) == \
           {"a": 0, " b": 1, "中": 3, "  ": 5, "😀": 6}


def test_a_rank_file_gives_the_texts_its_byte_characters_spell():
    # from_ranks decodes each token's bytes itself (BPE.texts) instead of reading them back out
    # of GPT-2's byte characters: the same texts, halves of characters included.
    from bpe_core.formats.tiktoken_file import from_ranks

    zhong = "中".encode()
    table = BYTES | {b" b": 256, zhong[:2]: 257, zhong: 258, b"\xff\xfe": 259}
    model = from_ranks(table, pretokenizer="gpt2").model
    assert model.texts == token_texts(model.tokens)
    assert model.texts[256:] == [" b", "\udce4\udcb8", "中", "\udcff\udcfe"]
    # Texts that do not match the tokens one for one are refused.
    from bpe_core import recipes
    from bpe_core.alphabet import byte_base

    with pytest.raises(ValueError, match="255 token texts for 256 tokens"):
        recipes.build(byte_base(), [], pattern=r"\S+", preset=None, texts=model.texts[:255])
