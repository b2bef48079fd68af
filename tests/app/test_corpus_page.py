"""The Corpus page, run headless with Streamlit's AppTest: samples, uploads, pasted text, errors.

Reading uploads is also tested directly through ``ui.corpus.jobs.read_uploads``, which takes
``(name, bytes)`` pairs, so big and odd files need no widget at all.
"""

from __future__ import annotations

import gzip
import io
import json
import random
import re
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import bpe_core
from ui.corpus import view
from ui.corpus.data import counts_stats
from ui.corpus.jobs import read_uploads
from ui.corpus.view import PREVIEW_KEY
from ui.shared import background
from tests.app.holding import Hold
from ui.shared.samples import samples

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000010000000100806000000") + bytes(300)
LATIN1 = "Olá, café com pão.\n".encode("latin-1")


# --- helpers --------------------------------------------------------------------------------


def plain(markdown: str) -> str:
    """A message as the user reads it: markdown escapes and bold markers removed."""
    return re.sub(r"\\(.)", r"\1", markdown).replace("**", "")


def open_app() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    assert not at.exception
    return at


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def errors(at: AppTest) -> list[str]:
    return [plain(e.value) for e in at.error]


def pick_sample(at: AppTest, sample_id: str) -> AppTest:
    at.selectbox(key="corpus_sample").set_value(sample_id).run()
    assert not at.exception
    return at


def active_corpus(at: AppTest):
    return at.session_state["corpora"][at.session_state["corpus"]]


def upload(at: AppTest, *files: tuple[str, bytes]) -> AppTest:
    at.radio(key="corpus_source").set_value("upload").run()
    at.file_uploader(key="corpus_files").set_value(
        [(name, data, "application/octet-stream") for name, data in files]).run()
    assert not at.exception
    return at


def load(at: AppTest, name: str | None = None) -> AppTest:
    if name is not None:
        at.text_input(key="corpus_upload_name").set_value(name)
    at.button(key="corpus_upload_load").click().run()
    assert not at.exception
    return at


def field_picker(at: AppTest, label_part: str):
    return next(s for s in at.selectbox if s.key.startswith("corpus_field_")
                and label_part in plain(s.label))


def preview(at: AppTest) -> list[str]:
    """The text of the Preview expander, opened (it is drawn only when open)."""
    at.session_state[PREVIEW_KEY] = True
    at.run()
    assert not at.exception
    return [c.value for c in at.code]


def word_table(at: AppTest) -> pd.DataFrame:
    return at.dataframe[0].value


# --- first visit and samples ----------------------------------------------------------------


def test_first_visit_shows_the_default_corpus_and_tokenizer():
    at = open_app()
    documents = samples()["english"].documents()
    shown = metrics(at)
    assert shown["Bytes"] == f"{sum(len(d.encode()) for d in documents):,}"
    assert shown["Characters"] == f"{sum(len(d) for d in documents):,}"
    assert shown["Words"] == f"{sum(len(d.split()) for d in documents):,}"
    assert shown["Distinct words"] == f"{len({w for d in documents for w in d.split()}):,}"
    assert at.selectbox(key="corpus_sample").value == "english"
    side = at.sidebar
    assert side.selectbox(key="sidebar_corpus").value == "English essays (default)"
    assert side.selectbox(key="sidebar_tokenizer").value == "English byte-level 1k"
    assert "pre-tokenizer Split(gpt2) + ByteLevel" in side.caption[1].value
    # It said "Vocab size", where every page says "Vocabulary size".
    assert "Vocabulary size: 1,000" in side.caption[1].value
    assert any("Try training with: byte-level, pre-tokenizer “GPT-2 regex”, vocabulary size "
               "1,000" in c.value for c in at.main.caption)
    assert "227,130 characters in 24 documents" in side.caption[0].value


def test_toy_sample_has_exact_numbers():
    at = pick_sample(open_app(), "set-new-renew")
    assert at.session_state["corpus"] == "set new new renew reset renew"
    assert metrics(at) == {"Bytes": "30", "Characters": "30", "Lines": "1", "Words": "6",
                           "Distinct words": "4"}
    table = word_table(at)
    assert list(zip(table["word"], table["count"])) == [("new", 2), ("renew", 2), ("set", 1),
                                                        ("reset", 1)]
    assert list(table["share"]) == ["33.3%", "33.3%", "16.7%", "16.7%"]
    assert not at.code  # the preview is drawn when opened
    assert preview(at) == ["set new new renew reset renew"]


def test_the_pre_tokenizer_decides_what_a_word_is():
    at = pick_sample(open_app(), "set-new-renew")
    assert any(c.value.startswith("Counted in **words (split on whitespace)**. ")
               for c in at.main.caption)
    at.selectbox(key="corpus_pretokenizer").set_value("gpt2").run()
    # GPT-2's pieces keep their leading space, and the final newline is a piece of its own:
    # the page counts pieces then, and says so.
    assert metrics(at)["Pieces"] == "7" and metrics(at)["Distinct pieces"] == "5"
    assert list(word_table(at)["piece"]) == ["·new", "·renew", "set", "·reset", "↵"]
    assert any(m.value == "**Most frequent pieces** (split by the pre-tokenizer “GPT-2 regex”)"
               for m in at.markdown)
    assert any(c.value.startswith("Counted in **pieces (split by the pre-tokenizer “GPT-2 "
                                  "regex”)**. ") for c in at.main.caption)
    at.selectbox(key="corpus_pretokenizer").set_value("none").run()
    assert metrics(at)["Pieces"] == "1"  # the whole text is one piece


def test_the_pre_tokenizers_have_the_names_the_train_page_gives_them():
    # The box showed the ids ('gpt2', 'end-of-word'), its help quoted them, and a sample's
    # suggestion read "pre-tokenizer end-of-word", where the Train page says "GPT-2 regex" and
    # "Words ending in </w>".
    at = pick_sample(open_app(), "low-lower")
    box = at.selectbox(key="corpus_pretokenizer")
    assert box.options == ["GPT-2 regex", "GPT-4 regex (cl100k)", "GPT-4o regex (o200k)",
                           "Leading-space words", "Whitespace words", "Words ending in </w>",
                           "None (whole text)"]
    assert box.value == "whitespace"  # the ids stay in the session
    assert box.help.startswith("How the text is cut before counting, as a pre-tokenizer cuts "
                               "it before BPE sees it. “Whitespace words” and “Words ending in "
                               "</w>” split on spaces, tabs and newlines, giving words; the "
                               "others give pieces: “Leading-space words” keeps one leading "
                               "space on each word; “GPT-2 regex”, “GPT-4 regex (cl100k)” and "
                               "“GPT-4o regex (o200k)” also split off punctuation and digits")
    assert "“None (whole text)” keeps each document as one piece." in box.help
    assert any("Try training with: char-level, pre-tokenizer “Words ending in </w>”, 5 merges"
               in c.value for c in at.main.caption)


def test_the_bytes_per_character_the_page_quotes_are_those_of_the_bundled_samples():
    # The caption's "about" figures, held to the samples in those languages (Hindi's 2.54 was
    # once quoted as 3: a space or a full stop is one byte between its three-byte letters).
    at = pick_sample(open_app(), "hindi")
    [note] = [c.value for c in at.main.caption if "bytes** on average" in c.value]
    assert "A character takes **2.54 bytes** on average" in note
    quoted = re.search(r"\(about (.*?)\)\.", note)[1]
    for figure, languages in re.findall(r"([\d.]+) in ([A-Z]\w+(?: or [A-Z]\w+)?)", quoted):
        for language in languages.split(" or "):
            text = "".join(samples()[language.lower()].documents())
            assert abs(len(text.encode()) / len(text) - float(figure)) < 0.25, language


def test_word_count_sample_shows_its_table_instead_of_a_preview():
    at = pick_sample(open_app(), "hug-pug")
    shown = metrics(at)
    assert shown == {"Bytes": "113", "Characters": "113", "Words": "36", "Distinct words": "5"}
    assert "corpus_pretokenizer" not in [s.key for s in at.selectbox]
    counts = at.expander[0]
    assert counts.label == "Word counts"
    table = counts.dataframe[0].value
    assert dict(zip(table["word"], table["count"])) == {"hug": 10, "pug": 5, "pun": 12, "bun": 4,
                                                        "hugs": 5}
    assert not at.code  # no text preview for a table of counts


@pytest.mark.parametrize("sample_id, scripts", [
    ("russian", ["Cyrillic", "Common"]),
    ("japanese", ["Hiragana", "Han", "Common", "Katakana"]),
])
def test_script_chart_names_the_writing_systems(sample_id, scripts):
    at = pick_sample(open_app(), sample_id)
    charts = at.get("plotly_chart")
    assert len(charts) == 1
    bars = json.loads(charts[0].proto.spec)["data"][0]
    assert bars["y"] == scripts[::-1]  # largest first, drawn from the top
    assert sum(bars["x"]) == sum(len(d) for d in samples()[sample_id].documents())


def test_sidebar_switches_between_this_sessions_corpora_and_tokenizers():
    at = AppTest.from_file(APP, default_timeout=120)
    english, toy = (state_corpus(i) for i in ("english", "low-lower"))
    tiny = bpe_core.train("hug pug", unit="char", pretokenizer="whitespace", max_merges=1,
                          min_frequency=1, name="tiny")
    big = bpe_core.train("hug pug pun", unit="byte", pretokenizer="gpt2", max_merges=2,
                         min_frequency=1, name="big")
    at.session_state["corpora"] = {english.name: english, toy.name: toy}
    at.session_state["corpus"] = toy.name
    at.session_state["tokenizers"] = {"tiny": tiny, "big": big}
    at.session_state["tokenizer"] = "tiny"
    at.run()
    side = at.sidebar
    assert side.selectbox(key="sidebar_corpus").options == [english.name, toy.name]
    assert side.selectbox(key="sidebar_corpus").value == toy.name
    assert side.caption[1].value.split("  \n") == [
        "Unit: char-level", "Pipeline: pre-tokenizer Split(whitespace) → BPE → decoder Fuse",
        "Vocabulary size: 6 (1 merge)"]
    side.selectbox(key="sidebar_corpus").set_value(english.name)
    side.selectbox(key="sidebar_tokenizer").set_value("big")
    at.run()
    assert not at.exception
    assert (at.session_state["corpus"], at.session_state["tokenizer"]) == (english.name, "big")
    assert metrics(at)["Lines"] == "1,059"  # the page now shows the English essays


def state_corpus(sample_id: str):
    """A bundled sample as the session keeps it (without Streamlit's resource cache)."""
    from ui.shared.state import make_corpus

    s = samples()[sample_id]
    return make_corpus(s.title, documents=s.documents(), source="sample", sample=s)


# --- uploads --------------------------------------------------------------------------------


def test_upload_a_text_file():
    at = load(upload(open_app(), ("notes.txt", "\ufeffthe cat and the hat\nthe end\n".encode())))
    corpus = active_corpus(at)
    assert (corpus.name, corpus.source) == ("notes", "upload")
    assert metrics(at) == {"Bytes": "28", "Characters": "28", "Lines": "2", "Words": "7",
                           "Distinct words": "5"}
    assert any("Loaded notes from notes.txt" in plain(s.value) for s in at.success)


def test_a_file_with_old_mac_line_ends_counts_and_shows_its_lines():
    # Carriage returns alone end the lines (classic Mac OS); the corpus keeps them as they are.
    at = load(upload(open_app(), ("mac.txt", b"one two\rthree four\rfive\r"),
                     ("dos.txt", b"six\r\nseven\r\n")))
    assert active_corpus(at).documents == ("one two\rthree four\rfive\r", "six\r\nseven\r\n")
    assert metrics(at)["Lines"] == "5"
    # (st.code drops the last line end)
    assert preview(at) == ["one two\nthree four\nfive\nsix\r\nseven\r"]


def test_upload_a_csv_and_pick_its_text_column():
    csv = b"title,review,stars\nA walk,Lovely lovely walk in the rain,5\nStorms,Too wet,1\n"
    at = upload(open_app(), ("reviews.csv", csv))
    picker = field_picker(at, "reviews.csv")
    assert picker.value == "review"  # the longest text column is the first guess
    picker.set_value("title").run()
    at = load(at, name="Titles")
    corpus = active_corpus(at)
    assert corpus.name == "Titles" and corpus.documents == ("A walk", "Storms")
    assert metrics(at)["Words"] == "3"


def test_upload_jsonl_and_gzip_together():
    jsonl = (b'{"id": 1, "text": "set new new", "lang": "en"}\n'
             b'{"id": 2, "text": "renew reset renew", "lang": "en"}\n')
    at = upload(open_app(), ("a.jsonl", jsonl), ("b.txt.gz", gzip.compress(b"hug pug\n")))
    assert field_picker(at, "a.jsonl").value == "text"
    at = load(at)
    assert active_corpus(at).documents == ("set new new", "renew reset renew", "hug pug\n")
    assert metrics(at)["Words"] == "8"
    assert at.session_state["corpus"] == "a + 1 more"


def test_upload_parquet():
    buffer = io.BytesIO()
    pd.DataFrame({"n": [1, 2], "text": ["привет мир", "мир"]}).to_parquet(buffer)
    at = load(upload(open_app(), ("ru.parquet", buffer.getvalue())))
    assert metrics(at)["Words"] == "3" and metrics(at)["Distinct words"] == "2"
    # A small upload is read and counted at once, in the session: no worker.
    assert view.READ_JOB not in at.session_state and view.STATS_JOB not in at.session_state


def finish(at: AppTest, slot: str) -> AppTest:
    """Wait for the background job held under ``slot`` to end, then rerun the page."""
    _, job = at.session_state[slot]
    assert job.wait(timeout=60) == "done", job.error
    at.run()
    assert not at.exception
    return at


def bars(at: AppTest) -> list[str]:
    return [p.proto.text for p in at.get("progress")]


def test_a_text_file_over_a_megabyte_is_read_and_counted_in_a_worker_as_one_document():
    text = "".join(f"line {i} of one long file\n" for i in range(60_000))  # 1.6 MB
    at = load(upload(open_app(), ("long.txt", text.encode())))
    _, reading = at.session_state[view.READ_JOB]
    if not reading.finished:  # what is going on, and a way to stop it
        assert "Reading 1 file (1.6 MB) in the background…" in " ".join(bars(at))
        assert any(b.label == "Cancel" for b in at.button)
    at = finish(at, view.READ_JOB)
    assert view.READ_JOB not in at.session_state  # read once: the page follows it no more
    assert active_corpus(at).documents == (text,)
    assert "Loaded long from long.txt. It is now the active corpus." in [
        plain(s.value) for s in at.success]
    _, counting = at.session_state[view.STATS_JOB]
    assert counting.kind == "corpus-stats" and at.session_state[view.STATS_JOB][0] == (
        active_corpus(at).digest, "whitespace")
    if not counting.finished:
        assert f"Counting the words of {len(text):,} characters in the background…" in bars(at)
    at = finish(at, view.STATS_JOB)
    assert at.sidebar.caption[0].value == f"{len(text):,} characters in 1 document"
    notes = next(c.value for c in at.main.caption if c.value.startswith("Counted in"))
    assert notes.endswith(" 1 document (a file, a row of a table or a line of a .jsonl file is "
                          "one document).")
    assert metrics(at)["Lines"] == "60,000" and metrics(at)["Words"] == "360,000"


def test_a_large_upload_read_while_the_user_is_on_another_page_becomes_the_corpus():
    text = "".join(f"line {i} of one long file\n" for i in range(60_000))  # 1.6 MB: a worker
    at = load(upload(open_app(), ("long.txt", text.encode())))
    at.switch_page("app_pages/train.py").run()
    _, reading = at.session_state[view.READ_JOB]
    assert reading.wait(timeout=60) == "done", reading.error
    at.switch_page("app_pages/corpus.py").run()  # the uploader has forgotten the file
    assert not at.exception and not at.file_uploader(key="corpus_files").value
    assert active_corpus(at).documents == (text,)
    assert "Loaded long from long.txt. It is now the active corpus." in [
        plain(s.value) for s in at.success]


def words(n: int, *, seed: int = 1) -> str:
    """``n`` words drawn from 50,000 made-up ones, a line of 12 at a time (no piece repeats
    often enough for counting to be quick: a few MB take a second)."""
    rng = random.Random(seed)
    vocabulary = ["".join(rng.choices("abcdefghijklmnopqrstuvwxyzäöü", k=rng.randint(2, 9)))
                  for _ in range(50_000)]
    drawn = rng.choices(vocabulary, k=n)
    return "".join(" ".join(drawn[i:i + 12]) + "\n" for i in range(0, n, 12))


def test_counting_a_large_corpus_can_be_cancelled_started_again_and_is_kept_for_everyone():
    text = words(180_000)  # 1.27 MB, 1,166,470 characters: read and counted by workers
    assert len(text) >= view.BACKGROUND_SIZE
    hold = Hold("corpus-stats")
    at = finish(load(upload(open_app(), ("big.txt", text.encode()))), view.READ_JOB)
    hold.held()  # the corpus is read; its counting has started, and is held still
    what = f"Counting the words of {len(text):,} characters"
    assert f"{what} in the background…" in bars(at)
    hold.cancel(at)
    assert [i.value for i in at.info] == [f"{what} was cancelled."]
    assert "Words" not in metrics(at)
    at.button(key=f"{view.STATS_JOB}_again").click().run()
    at = finish(at, view.STATS_JOB)
    assert metrics(at)["Words"] == "180,000" and metrics(at)["Lines"] == "15,000"
    # Another pre-tokenizer is another count; coming back to the first does not count again.
    at.selectbox(key="corpus_pretokenizer").set_value("gpt2").run()
    at = finish(at, view.STATS_JOB)
    assert metrics(at)["Pieces"] == "195,000"  # the words, and the 15,000 newlines
    at.selectbox(key="corpus_pretokenizer").set_value("whitespace").run()
    assert at.session_state[view.STATS_JOB][0][1] == "gpt2"  # no new job
    assert metrics(at)["Words"] == "180,000"
    # Another session loading the same text finds it counted.
    other = finish(load(upload(open_app(), ("same.txt", text.encode()))), view.READ_JOB)
    assert view.STATS_JOB not in other.session_state and metrics(other)["Words"] == "180,000"


def test_reading_a_large_upload_can_be_cancelled_and_loaded_again():
    rows = b"".join(b'{"text": "w%d"}\n' % i for i in range(250_000))  # 4.4 MB, a row each
    hold = Hold("corpus-read")
    at = load(upload(open_app(), ("rows.jsonl", rows)))
    hold.held()
    what = f"Reading 1 file ({len(rows) / 2**20:.1f} MB)"
    assert f"{what} in the background…" in bars(at)
    hold.cancel(at)
    assert [i.value for i in at.info] == [f"{what} was cancelled."]
    assert active_corpus(at).name == "English essays (default)"  # still the corpus it had
    at = finish(load(at), view.READ_JOB)
    assert len(active_corpus(at).documents) == 250_000
    assert active_corpus(at).documents[-1] == "w249999"


def test_a_column_name_given_twice_or_blank_names_the_column_that_is_read():
    # Before: the picker offered 'note' (the second column, which holds words) and the corpus
    # was the first column's numbers, ('1', '2'); a blank name was a blank option.
    table = b"note,note,\n1,hello world,\n2,bye now,good night\n"
    at = upload(open_app(), ("notes.csv", table))
    assert field_picker(at, "notes.csv").options == ["note (column 2)", "column 3"]
    assert active_corpus(load(at)).documents == ("hello world", "bye now")


def test_a_table_without_text_is_refused_naming_its_columns():
    at = upload(open_app(), ("scores.csv", b"id,stars\n1,5\n2,3\n"),
                ("n.jsonl", b'{"id": 1, "score": 4.5}\n'))
    assert errors(at) == [
        "scores.csv has no column of text: its columns are 'id' and 'stars', and none of them "
        "holds words (only numbers or empty cells). Add a column with your text, for example "
        "one named 'text', or upload the text itself as a .txt file.",
        "n.jsonl has no text to read: the names on its lines are 'id' and 'score', and none of "
        "them has words as its value. Put the text of each line under a name, as in "
        '{"text": "Great little book"}, or upload the text itself as a .txt file.']
    assert not [b for b in at.button if b.key == "corpus_upload_load"]


def test_jsonl_text_one_level_down_is_said_to_be_nested_not_missing():
    # Before: "the names on its lines are 'id' and 'translation', and none of them has words
    # as its value", of a line whose translation holds 'Hello there'.
    line = b'{"id": 1, "translation": {"en": "Hello there", "fr": "Bonjour"}}\n'
    at = upload(open_app(), ("wmt.jsonl", line))
    assert errors(at) == [
        "wmt.jsonl has no text at the top level of its lines: 'translation' holds a list or a "
        "group of names and values, and text inside one is not read. Put the text of each "
        'line under a name of its own, as in {"text": "Great little book"}, or upload the '
        "text itself as a .txt file."]
    assert not [b for b in at.button if b.key == "corpus_upload_load"]


def test_a_text_cut_at_an_unquoted_comma_is_refused_not_read_in_part():
    # Read before, as 'Hello' alone: ' world' was dropped without a word.
    at = load(upload(open_app(), ("notes.csv", b"id,text\n1,Hello, world\n2,\"Fine, ok\",\n")))
    assert errors(at) == [
        "notes.csv: row 2 has 3 cells but the header names 2 columns, so a text in it was cut "
        "apart. Put each text that holds a comma in double quotes, as spreadsheets save it."]
    assert at.session_state["corpus"] == "English essays (default)"
    fixed = read_uploads([("notes.csv", b"id,text\n1,\"Hello, world\"\n2,\"Fine, ok\",\n")])
    assert fixed.documents == ("Hello, world", "Fine, ok")  # a trailing empty cell is no text


def test_a_quote_that_is_never_closed_is_refused_not_read_as_the_rest_of_the_file():
    # Read before as two documents, 'ok' and 'Unclosed and on\n3,fine\n4,last\n' (rows 3 and
    # 4 taken in), and 'Quoted, she said' with its quotes dropped.
    table = b'id,text\n1,ok\n2,"Unclosed and on\n3,fine\n4,last\n'
    at = upload(open_app(), ("notes.csv", table), ("said.csv", b'text\n"Quoted," she said\n'))
    advice = ('A text that holds double quotes goes in double quotes as a whole, each of its '
              'own quotes doubled ("She said ""hi"""), as spreadsheets save it.')
    assert errors(at) == [
        "notes.csv: lines 3 to 5: a double quote opens a text that is never closed, so every line "
        f"after it would be read as part of that text. {advice}",
        f"said.csv: line 2: a text in double quotes goes on after its closing quote. {advice}"]
    assert not [b for b in at.button if b.key == "corpus_upload_load"]
    fixed = read_uploads([("said.csv", b'text\n"""Quoted,"" she said"\n')])
    assert fixed.documents == ('"Quoted," she said',)


def test_png_bytes_get_a_clear_error_and_nothing_to_load():
    at = upload(open_app(), ("cat.png", PNG), ("cat.txt", PNG))
    shown = errors(at)
    assert any(e.startswith("cat.png: unsupported file type .png") for e in shown)
    assert any("cat.txt looks like a binary file (a PNG image)" in e for e in shown)
    assert not [b for b in at.button if b.key == "corpus_upload_load"]
    assert at.session_state["corpus"] == "English essays (default)"


def test_one_bad_file_among_several_is_named_and_the_others_kept():
    at = load(upload(open_app(), ("good.txt", b"hello world\n"), ("old.txt", LATIN1)))
    shown = errors(at)
    assert len(shown) == 1 and shown[0].startswith("old.txt is not valid UTF-8: byte 0xe1")
    assert "re-save it as UTF-8" in shown[0]
    assert active_corpus(at).documents == ("hello world\n",)
    assert any("from good.txt" in plain(s.value) for s in at.success)


def test_invalid_utf8_alone_loads_nothing():
    at = load(upload(open_app(), ("old.txt", LATIN1)))
    assert errors(at)[0].startswith("old.txt is not valid UTF-8")
    assert "the active corpus is still English essays (default)" in plain(at.warning[0].value)
    assert at.session_state["corpus"] == "English essays (default)"
    assert not at.exception


def test_empty_file_gets_a_clear_error():
    at = upload(open_app(), ("empty.txt", b""))
    assert errors(at) == ["empty.txt is empty. Upload a file that contains some text."]
    assert not at.exception


# --- pasted text ----------------------------------------------------------------------------


def test_paste_text_becomes_the_active_corpus():
    at = open_app()
    at.radio(key="corpus_source").set_value("paste").run()
    hostile = "<script>alert(1)</script> **bold** مرحبا بالعالم\u202e\n"
    at.text_area(key="corpus_paste_text").set_value(hostile)
    at.text_input(key="corpus_paste_name").set_value("My *notes*")
    at.button(key="corpus_paste_use").click().run()
    assert not at.exception
    corpus = active_corpus(at)
    assert (corpus.name, corpus.source, corpus.documents) == ("My *notes*", "paste", (hostile,))
    assert plain(at.success[0].value) == "This text is the active corpus, My *notes*."
    assert metrics(at)["Words"] == "4"  # U+202E is not whitespace: it sticks to its word
    # Verbatim, not as HTML or markdown; the override a marker, not reversing what follows.
    assert preview(at) == [hostile.rstrip("\n").replace("\u202e", "⟨U+202E⟩")]
    chart = json.loads(at.get("plotly_chart")[0].proto.spec)["data"][0]
    assert set(chart["y"]) == {"Latin", "Arabic", "Common"}


def test_the_statistics_kept_for_every_session_hold_no_word_longer_than_the_table_shows():
    # The statistics are kept for every session after the corpus is gone (64 of them), and kept
    # its top 500 words whole: a word of 300,000 characters (or, split with "none", each whole
    # document) stayed in memory in full. A long word is now kept cut, as the table shows it.
    at = open_app()
    at.radio(key="corpus_source").set_value("paste").run()
    at.text_area(key="corpus_paste_text").set_value("x" * 300_000 + " hug hug\n")
    at.button(key="corpus_paste_use").click().run()
    assert not at.exception and metrics(at)["Words"] == "3"
    stats = background.kept("corpus stats", size=64).get((active_corpus(at).digest, "whitespace"))
    cut = "x" * 200 + "\u2026"
    assert stats.top_words == [("hug", 2), (cut, 1)]
    table = at.dataframe[0].value
    assert table["word"].tolist() == ["hug", cut] and table["count"].tolist() == [2, 1]


def test_pasting_nothing_warns_and_keeps_the_corpus():
    at = open_app()
    at.radio(key="corpus_source").set_value("paste").run()
    at.text_area(key="corpus_paste_text").set_value("  \n ")
    at.button(key="corpus_paste_use").click().run()
    assert "The text box is empty" in at.warning[0].value
    assert at.session_state["corpus"] == "English essays (default)"


# --- the functions behind the page ----------------------------------------------------------


def test_read_uploads_decodes_utf16_and_gzip_and_reports_progress():
    seen = []
    result = read_uploads(
        [("a.txt", "größe\n".encode("utf-16")), ("b.md.gz", gzip.compress(b"x\n" * 300_000))],
        progress=lambda fraction, text: seen.append(fraction))
    assert result.documents == ("größe\n", "x\n" * 300_000)  # a file is one document
    assert result.loaded == ("a.txt", "b.md.gz") and not result.errors
    assert seen == sorted(seen) and seen[-1] == 1.0 and len(seen) >= 2


def test_read_uploads_keeps_nothing_of_a_file_that_fails_midway():
    broken = b"good line\n" * 200_000 + b"\xff\xfe bad\n"  # the bad byte is past the first chunk
    result = read_uploads([("big.txt", broken), ("ok.txt", b"fine\n")])
    assert result.documents == ("fine\n",)
    assert result.errors[0][0] == "big.txt" and "byte offset 2000000" in result.errors[0][1]


def test_read_uploads_names_the_columns_of_a_table_without_text():
    result = read_uploads([("t.csv", b"id,note\n1,\n2,\n")], fields=["note"])
    assert result.errors == (("t.csv", "t.csv has no column of text: its columns are 'id' and "
                                       "'note', and none of them holds words (only numbers or "
                                       "empty cells). Add a column with your text, for example "
                                       "one named 'text', or upload the text itself as a .txt "
                                       "file."),)


def test_a_text_file_bigger_than_a_chunk_is_one_document():
    text = "a line of the one big file\n" * 100_000  # 2.7 MB: read in three chunks
    result = read_uploads([("big.txt", text.encode()), ("r.jsonl", b'{"text": "a"}\n' * 3)])
    assert result.documents == (text, "a", "a", "a")


def test_counts_stats_weighs_each_word_by_its_count():
    stats = counts_stats({"привет": 2, "hi": 3})
    assert (stats.words, stats.unique_words, stats.characters) == (5, 2, 18)
    assert stats.bytes == 2 * 12 + 3 * 2
    assert stats.scripts == {"Cyrillic": 12, "Latin": 6}
    assert stats.top_words == [("hi", 3), ("привет", 2)]


def test_the_address_holds_the_corpus_so_a_reload_brings_it_back():
    at = open_app()
    at.switch_page("app_pages/corpus.py").run()
    assert "sample" not in at.query_params  # the default corpus: a new session has it anyway
    at.radio(key="corpus_source").set_value("counts").run()
    at.text_area(key="corpus_counts_text").input("hug 10, pug 5, pun 12").run()
    at.button(key="corpus_counts_use").click().run()
    assert at.query_params["words"] == "hug 10, pug 5, pun 12"
    assert any("The address bar holds the corpus" in c.value for c in at.caption)
    # A reload is a new session on the same address.
    again = AppTest.from_file(APP, default_timeout=120)
    again.query_params.update({"words": "hug 10, pug 5, pun 12", "corpus": "Word counts"})
    again.switch_page("app_pages/corpus.py").run()
    corpus = again.session_state["corpora"][again.session_state["corpus"]]
    assert corpus.counts == {"hug": 10, "pug": 5, "pun": 12}


def test_one_typed_word_is_the_active_corpus_in_the_singular():
    at = open_app()
    at.switch_page("app_pages/corpus.py").run()
    at.radio(key="corpus_source").set_value("counts").run()
    at.text_area(key="corpus_counts_text").input("hug 10").run()
    at.button(key="corpus_counts_use").click().run()
    # It said 'These 1 words are the active corpus'.
    assert at.success[0].value.startswith("This word is the active corpus, **Word counts**: "
                                          "train on it on the Train page")


def test_a_bad_corpus_link_says_why_and_keeps_the_default():
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update({"sample": "no-such-sample"})
    at.switch_page("app_pages/corpus.py").run()
    assert not at.exception
    assert "the link names a sample this version does not have" in at.warning[0].value.lower()


@pytest.mark.parametrize("query, said", [
    # A link is anyone's text: unescaped, these were a link, bold and maths on the page.
    # (An address is not a link either: a word joiner, U+2060, keeps Markdown from making one.)
    ({"sample": "[x](https://e.example) $y$"},
     r"The link names a sample this version does not have ('\[x\]\(https" "\u2060"
     r"\://e\.example\) \$y\$')."),
    # One full stop: the count's sentence ended in its own as well ('1,000,000,000..').
    ({"words": "**b** 10, hug 10000000000"},
     r"The link's word counts cannot be read: 'hug 10000000000'\: a count must be at most "
     r"1,000,000,000."),
])
def test_a_corpus_link_is_quoted_as_it_is(query, said):
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update(query)
    at.switch_page("app_pages/corpus.py").run()
    assert [w.value for w in at.warning] == [said]


def test_a_link_to_an_uploaded_corpus_says_it_is_gone_after_a_reload():
    # An upload leaves its name in the address: the reload says which corpus it lost.
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update({"corpus": "**essays**.txt"})
    at.switch_page("app_pages/corpus.py").run()
    assert not at.exception
    [warning] = [w.value for w in at.warning]
    assert warning == ("This link's corpus, \\*\\*essays\\*\\*\\.txt, was an upload, which no "
                       "address can hold: upload it again on the Corpus page (the default "
                       "corpus is used meanwhile).")
    assert at.session_state["corpora"][at.session_state["corpus"]].sample  # the default one


def test_the_upload_limit_and_where_to_change_it_are_named_beside_the_uploader():
    at = open_app()
    at.radio(key="corpus_source").set_value("upload").run()
    note = next(c.value for c in at.caption if "MB per file" in c.value)
    assert note.startswith("Up to 200 MB per file: a larger file shows in red")
    assert "`maxUploadSize` under `[server]` in `.streamlit/config.toml`" in note


def test_a_hostile_corpus_name_in_a_link_is_shown_as_typed():
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update({"words": "hug 10, pug 5",
                            "corpus": "**bold** [x](javascript:alert(1)) <script>"})
    at.switch_page("app_pages/corpus.py").run()
    assert not at.exception
    name = at.session_state["corpus"]
    assert name == "**bold** [x](javascript:alert(1)) <script>"
    shown = " ".join(m.value for m in [*at.markdown, *at.caption, *at.header,
                                        *at.sidebar.caption])
    assert "\\*\\*bold\\*\\*" in shown  # the name is on the page, escaped
    assert "**bold**" not in shown.replace("\\*\\*bold\\*\\*", "")  # escaped wherever it shows
    assert "](javascript:" not in shown.replace("\\](javascript:", "")


def test_a_bidi_override_in_a_corpus_name_does_not_turn_the_page_round():
    # An RLO (U+202E) in a name, escaped for Markdown only, reversed the rest of every sentence
    # that names the corpus: "...kcab ti gnikaT :ti no krow yna dna **" on the Corpus page.
    at = open_app()
    at.radio(key="corpus_source").set_value("paste").run()
    at.text_area(key="corpus_paste_text").set_value("some words here")
    at.text_input(key="corpus_paste_name").set_value("my\u202enotes\x00")
    at.button(key="corpus_paste_use").click().run()
    assert not at.exception and active_corpus(at).name == "my\u202enotes\x00"
    shown = [m.value for m in [*at.markdown, *at.caption, *at.header, *at.success]]
    assert any("my⟨U+202E⟩notes⟨NUL⟩" in s for s in shown)
    assert not [s for s in shown if "\u202e" in s or "\x00" in s]


def test_switching_to_another_corpus_stops_the_count_under_way():
    from tests.test_jobs import gone

    text = words(300_000, seed=2)  # 2.3 MB, counted in a worker (not kept from another test)
    hold = Hold("corpus-stats")
    at = finish(load(upload(open_app(), ("big.txt", text.encode()))), view.READ_JOB)
    job = hold.held()
    at.radio(key="corpus_source").set_value("sample").run()
    at = pick_sample(at, "set-new-renew")  # counted at once: nothing would show the other count
    assert job.state == "cancelled" and gone(hold.pid, within=1.0)
    assert view.STATS_JOB not in at.session_state
    hold = Hold("corpus-stats")
    at.session_state["corpus"] = "big"  # counted again, in a worker
    at.run()
    job = hold.held()
    at = pick_sample(at, "hug-pug")  # word counts: nothing to count
    assert job.state == "cancelled" and gone(hold.pid, within=1.0)


def test_the_preview_says_it_is_the_whole_corpus_when_the_corpus_is_shorter_than_its_cut():
    # It said 'the first 2,000 characters' of an 18-character upload.
    at = load(upload(open_app(), ("short.txt", b"eighteen chars ok\n")))
    assert [e.label for e in at.expander if e.label.startswith("Preview")] == [
        "Preview (the whole corpus)"]
    at = load(upload(at, ("long.txt", b"word " * 1000)))
    assert [e.label for e in at.expander if e.label.startswith("Preview")] == [
        "Preview (the first 2,000 characters)"]


def test_two_tables_of_one_name_have_pickers_that_say_which_file_they_are_for():
    # Both read 'Text column of a.csv': nothing told which picker was for which file.
    at = upload(open_app(), ("a.csv", b"title,review\nA,long text here\n"),
                ("a.csv", b"note,body\nx,other words there\n"))
    assert sorted(plain(s.label) for s in at.selectbox if s.key.startswith("corpus_field_")) == [
        "Text column of a.csv (file 1)", "Text column of a.csv (file 2)"]
    at = upload(at, ("b.csv", b"title,review\nA,long text here\n"))
    assert [plain(s.label) for s in at.selectbox if s.key.startswith("corpus_field_")] == [
        "Text column of b.csv"]
