"""The Tokenize page's comparison, run headless with AppTest: up to three more tokenizers beside
the active one, their counts, where they cut differently, and a long text's columns from a
worker."""

from __future__ import annotations

import re

from streamlit.testing.v1 import AppTest

import bpe_core
from tests.app.test_tokenize_page import active, open_page, type_text


def test_compare_puts_tokenizers_side_by_side_with_counts() -> None:
    at = open_page()
    text = "the lowest price is lower"
    type_text(at, text)
    small = bpe_core.train(text * 3, unit="char", pretokenizer="whitespace", max_merges=3,
                           min_frequency=1, name="tiny char")
    at.session_state["tokenizers"]["tiny char"] = small
    at.run()
    at.multiselect(key="tok_compare").set_value(["tiny char"]).run()
    assert not at.exception
    n = len(small.encode(text))
    assert any(f"{n:,} tokens" in c.value for c in at.caption)
    assert len([h for h in at.get("html") if 'class="bpe-tokens"' in h.proto.body]) == 3
    assert "tok_compare_job" not in at.session_state  # a sentence is encoded inline


def test_a_column_of_one_token_says_one_token() -> None:
    # A one-token text (or an empty one, with a model's BOS) read "**1 tokens**".
    at = open_page()
    at.session_state["tokenizers"]["tiny char"] = bpe_core.train(
        "ab ab ab", unit="char", pretokenizer="whitespace", max_merges=1, min_frequency=1,
        name="tiny char")
    at.run()
    at.multiselect(key="tok_compare").set_value(["tiny char"]).run()
    type_text(at, "ab")
    counts = [c.value.rsplit("\n", 1)[-1] for c in at.caption if " chars/token · " in c.value]
    assert counts[1] == "**1 token** · 2.00 chars/token · 2.00 bytes/token"


def test_a_compared_tokenizer_let_go_by_a_fetch_beside_it_leaves_the_comparison(
        monkeypatch) -> None:
    from ui.shared import loaders, state

    text = "the lowest price is lower"
    reference = bpe_core.train(text * 3, unit="byte", max_merges=5, min_frequency=1,
                               name="cl100k_base")
    monkeypatch.setattr(state, "MAX_TOKENIZERS", 2)
    monkeypatch.setattr(loaders, "loadable_references", lambda: ("cl100k_base",))
    monkeypatch.setattr(loaders, "fetch_into_session",  # what fetching adds, offline
                        lambda name, activate: state.add_tokenizer(reference, activate=False)
                        and None)
    at = open_page()
    type_text(at, text)
    at.session_state["tokenizers"]["tiny char"] = bpe_core.train(
        text * 3, unit="char", pretokenizer="whitespace", max_merges=3, min_frequency=1,
        name="tiny char")
    at.run()
    # The fetch lets "tiny char" go (the tab keeps two): the page says so and compares the rest.
    at.multiselect(key="tok_compare").set_value(["tiny char", "cl100k_base"]).run()
    assert not at.exception
    assert [t.value for t in at.toast] == [
        "“tiny char” was let go, the oldest of this tab's tokenizers: a tab keeps at most 2. "
        "Train or load it again to use it."]
    assert at.multiselect(key="tok_compare").value == ["cl100k_base"]
    assert any(f"**{len(reference.encode(text))} tokens**" in c.value for c in at.caption)


#: What compared_with_tiny_char types.
TINY_TEXT = "the lowest price is lower"


def compared_with_tiny_char() -> AppTest:
    """The page with ``TINY_TEXT`` typed and a tiny character-level tokenizer put beside the
    active one, which cuts it otherwise."""
    at = open_page()
    text = TINY_TEXT
    type_text(at, text)
    at.session_state["tokenizers"]["tiny char"] = bpe_core.train(
        text * 3, unit="char", pretokenizer="whitespace", max_merges=3, min_frequency=1,
        name="tiny char")
    at.run()
    at.multiselect(key="tok_compare").set_value(["tiny char"]).run()
    return at


def test_the_outlines_of_a_comparison_are_found_once_for_the_same_columns(monkeypatch) -> None:
    from ui.tokenize import compare, data

    calls = []
    monkeypatch.setattr(compare, "outlines", lambda columns: calls.append(1) or
                        data.outlines(columns))
    at = compared_with_tiny_char()
    assert len(calls) == 1
    outlined = [c.value for c in at.caption if c.value.startswith("Outlined in red")]
    assert outlined
    at.radio(key="tok_colours").set_value("id").run()  # the columns are the same
    at.run()
    assert not at.exception
    assert len(calls) == 1
    assert [c.value for c in at.caption if c.value.startswith("Outlined in red")] == outlined
    at.toggle(key="tok_compare_specials").set_value(True).run()  # they are not
    type_text(at, TINY_TEXT + " lowest")
    assert len(calls) == 3


def test_the_compared_tokenizers_of_a_long_text_are_encoded_in_one_worker_that_can_be_cancelled(
        ) -> None:
    from tests.app.holding import Hold
    from ui.tokenize import background

    at = open_page()
    text = "The lowest price is lower than the last one. " * 2_400  # 108,000 characters
    tiny = bpe_core.train(text[:2_000], unit="char", pretokenizer="whitespace", max_merges=20,
                          min_frequency=1, name="tiny char")
    byte = bpe_core.train(text[:2_000], unit="byte", max_merges=30, min_frequency=1,
                          name="tiny byte")
    at.session_state["tokenizers"].update({"tiny char": tiny, "tiny byte": byte})
    at.run()
    at.multiselect(key="tok_compare").set_value(["tiny char", "tiny byte"]).run()
    assert background.COMPARE_JOB not in at.session_state  # a sentence: inline
    hold = Hold("tokenize-compare")
    type_text(at, text)
    job = hold.held()
    what = "Tokenizing 108,000 characters with 2 more tokenizers"
    assert any(f"{what} in the background…" in p.proto.text for p in at.get("progress"))
    hold.cancel(at)
    assert f"{what} was cancelled." in [i.value for i in at.info]
    at.button(key=f"{background.COMPARE_JOB}_again").click().run()
    _, job = at.session_state[background.COMPARE_JOB]
    assert job.wait(timeout=60) == "done"
    _, main = at.session_state[background.JOB]
    assert main.wait(timeout=60) == "done"
    at.run()
    assert not at.exception
    # One column per tokenizer, the active one's taken from the tokens above, not encoded again.
    assert len(job.result) == 2
    assert [[s.id for s in spans] for spans in job.result] == [
        [s.id for s in tok.spans(text)] for tok in (tiny, byte)]
    counts = [len(active(at).spans(text)), len(tiny.encode(text)), len(byte.encode(text))]
    shown = [c.value for c in at.caption if " tokens** · " in c.value]
    assert [re.search(r"\*\*([\d,]+) tokens\*\*", c)[1] for c in shown] == [
        f"{n:,}" for n in counts]
    at.toggle(key="tok_compare_specials").set_value(True).run()
    assert at.session_state[background.COMPARE_JOB][1] is job  # BOS/EOS: no encoding again


def test_a_comparison_whose_text_above_was_cancelled_shows_its_other_columns() -> None:
    from tests.app.holding import Hold
    from ui.tokenize import background, view

    at = open_page()
    text = "The lowest price is lower than the last one. " * 2_400  # 108,000 characters
    tiny = bpe_core.train(text[:2_000], unit="char", pretokenizer="whitespace", max_merges=20,
                          min_frequency=1, name="tiny char")
    at.session_state["tokenizers"]["tiny char"] = tiny
    at.run()
    at.multiselect(key="tok_compare").set_value(["tiny char"]).run()
    hold = Hold("tokenize")
    type_text(at, text)
    hold.cancel(at)  # the tokens above: cancelled
    _, compared = at.session_state[background.COMPARE_JOB]
    assert compared.wait(timeout=60) == "done"
    at.run()
    assert not at.exception
    assert not any("they show with the tokens above" in c.value for c in at.caption)
    assert [w.value for w in at.warning] == [view.NOT_TOKENIZED]  # the active one's column
    assert any(f"**{len(tiny.encode(text)):,} tokens**" in c.value for c in at.caption)


def test_a_short_text_or_no_comparison_stops_the_long_texts_work() -> None:
    from tests.app.test_train_long_work import asleep
    from ui.shared import work
    from ui.tokenize import background

    pool = work.pool()  # every worker busy with another tab's job: this tab's jobs wait queued
    busy = [pool.submit(f"hold{k}", "another tab", asleep) for k in range(pool.workers)]
    try:
        at = open_page()
        text = "The lowest price is lower than the last one. " * 2_400  # 108,000 characters
        at.session_state["tokenizers"]["tiny char"] = bpe_core.train(
            text[:2_000], unit="char", pretokenizer="whitespace", max_merges=20,
            min_frequency=1, name="tiny char")
        at.run()
        at.multiselect(key="tok_compare").set_value(["tiny char"]).run()
        type_text(at, text)
        _, main = at.session_state[background.JOB]
        _, compared = at.session_state[background.COMPARE_JOB]
        assert main.state == compared.state == "queued"
        type_text(at, "the lowest price")  # replaced by a sentence, tokenized inline
        assert not at.exception
        assert main.state == compared.state == "cancelled"
        assert main not in pool.jobs() and compared not in pool.jobs()
        type_text(at, text)
        _, compared = at.session_state[background.COMPARE_JOB]
        at.multiselect(key="tok_compare").set_value([]).run()  # nothing to compare any more
        assert compared.state == "cancelled" and compared not in pool.jobs()
    finally:
        for job in busy:
            pool.cancel(job)


def test_a_box_outlined_as_cut_differently_says_so_in_its_tooltip() -> None:
    # The red outline was the only cue: a screen reader reads a box's tooltip, not its outline.
    at = compared_with_tiny_char()
    first = active(at).name
    columns = [h.proto.body for h in at.get("html") if 'class="bpe-tokens"' in h.proto.body][1:]
    box = re.compile(r'<span class="t ([^"]*)" title="([^"]*)"')
    for body, other in zip(columns, ("some other tokenizer", first)):
        boxes = box.findall(body)
        outlined = [tip for kind, tip in boxes if "d" in kind.split()]
        assert outlined
        assert all(tip.endswith(f"\nOutlined in red: {other} does not have this token")
                   for tip in outlined)
        assert not any("Outlined" in tip for kind, tip in boxes if "d" not in kind.split())
