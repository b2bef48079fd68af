"""The Languages page, run headless with Streamlit's AppTest: what it measures and shows."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import bpe_core
from tests.app.holding import Hold
from tests.model_files import char_bpe_file
from ui.languages import data as languages, jobs as language_jobs
from ui.languages import view
from ui.languages.tabs import TAB_KEY, TABS
from ui.shared import work
from ui.shared.charts import GREYS, script_colour
from ui.shared.jobs import Reporter
from ui.shared.samples import parallel_sample
from ui.shared.state import make_corpus
from ui.vocabulary.data import systems_table, vocabulary_frame

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PAGE = "app_pages/languages.py"
CSV = ("en,German,Japanese\n"
       '"Good morning, friends.","Guten Morgen, Freunde.",おはよう、みなさん。\n'
       "The shop opens at nine.,Der Laden öffnet um neun.,店は九時に開きます。\n")


def open_page() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()  # the entry script sets up the session (and the default tokenizer)
    at.switch_page(PAGE).run()
    assert not at.exception
    return at


def open_tab(at: AppTest, name: str) -> AppTest:
    """Switch to the tab whose label holds ``name`` (only the open tab is drawn), unless it is
    the open one."""
    label = next(t for t in TABS if name in t)
    if at.session_state[TAB_KEY] != label if TAB_KEY in at.session_state else label != TABS[0]:
        at.session_state[TAB_KEY] = label
        at.run()
        assert not at.exception
    return at


def table(at: AppTest):
    open_tab(at, "Table")
    assert len(at.dataframe) == 1
    return at.dataframe[0].value


#: The tab that holds each chart.
CHART_TABS = {"lang_bars": "Premium", "lang_bars_all": "Premium", "lang_heatmap": "× languages",
              "lang_boxes": "Per sentence", "lang_curve": "Vocabulary size",
              "lang_vocab_use": "Vocabulary use", "lang_vocab_scripts": "Vocabulary use"}


def chart(at: AppTest, key: str) -> dict:
    open_tab(at, CHART_TABS[key])
    protos = [c.proto for c in at.get("plotly_chart") if c.proto.id.endswith(f"-{key}")]
    assert len(protos) == 1, f"no single chart {key!r}"
    return json.loads(protos[0].spec)


def bars(at: AppTest) -> list[str]:
    return [p.proto.text for p in at.get("progress")]


def upload(at: AppTest, files) -> AppTest:
    uploader = next(u for u in at.get("file_uploader") if u.key.startswith("lang_upload"))
    uploader.set_value(files).run()
    assert not at.exception
    return at


def test_bundled_sample_loads_with_every_language():
    at = open_page()
    corpus = parallel_sample()
    df = table(at)
    assert languages.COUNTS_JOB not in at.session_state  # measured inline: no worker
    assert languages.CURVE_JOB not in at.session_state
    assert list(df.Code) == list(corpus.codes)
    assert list(df.Language) == [lang.label for lang in corpus.languages]
    assert set(df.Sentences) == {corpus.n_sentences}
    assert at.selectbox(key="lang_baseline").options == [lang.label for lang in corpus.languages]
    label = at.expander[0].label
    assert f"{corpus.n_sentences} sentences in {len(corpus.codes)} languages" in label
    bars = chart(at, "lang_bars")
    assert sorted(x for trace in bars["data"] for x in trace["x"]) == sorted(df.Language)


def test_only_the_open_tab_is_drawn_and_a_closed_one_keeps_its_choices():
    # All seven tabs were drawn on every run: their charts cost the browser seconds, and the
    # curve's encodings ran for a tab no one had opened.
    at = open_page()
    assert [c.proto.id.rsplit("-", 1)[-1] for c in at.get("plotly_chart")] == ["lang_bars"]
    assert languages.CURVE_JOB not in at.session_state and not at.dataframe
    open_tab(at, "Side by side").multiselect(key="lang_side_langs").set_value(["en", "my"]).run()
    assert not [m for m in open_tab(at, "Premium").multiselect if m.key == "lang_side_langs"]
    assert open_tab(at, "Side by side").multiselect(key="lang_side_langs").value == ["en", "my"]


def test_counts_equal_bpe_cores_and_the_baseline_premium_is_exactly_one():
    at = open_page()
    tok = at.session_state["tokenizers"][at.session_state["tokenizer"]]
    corpus = parallel_sample()
    df = table(at).set_index("Code")
    for code in corpus.codes:
        assert df.loc[code, "Tokens"] == sum(len(tok.encode(s)) for s in corpus.sentences(code))
    assert df.loc["en", "Premium"] == 1.0
    assert df.loc["hi", "Premium"] == df.loc["hi", "Tokens"] / df.loc["en", "Tokens"]

    at.selectbox(key="lang_baseline").set_value("hi").run()
    df = table(at).set_index("Code")
    assert df.loc["hi", "Premium"] == 1.0 and df.loc["en", "Premium"] < 1.0
    assert "Hindi" in chart(at, "lang_bars")["layout"]["yaxis"]["title"]["text"]


def test_uploaded_csv_is_measured():
    at = upload(open_page(), ("greetings.csv", CSV.encode(), "text/csv"))
    df = table(at)
    assert list(df.Code) == ["en", "de", "ja"] and set(df.Sentences) == {2}
    tok = at.session_state["tokenizers"][at.session_state["tokenizer"]]
    ja = sum(len(tok.encode(s)) for s in ("おはよう、みなさん。", "店は九時に開きます。"))
    assert df.set_index("Code").loc["ja", "Tokens"] == ja
    assert "greetings.csv" in at.expander[0].label
    # Back to the sample: the uploader is emptied, so the upload is not read again.
    at.button(key="lang_back").click().run()
    assert len(table(at)) == len(parallel_sample().codes)


def test_text_files_aligned_by_line_are_measured():
    at = upload(open_page(), [("en.txt", b"One.\nTwo.\n", "text/plain"),
                              ("french.txt", "Un.\nDeux.\n".encode(), "text/plain")])
    assert list(table(at).Language) == ["English", "French — français"]


def test_an_id_column_is_left_out_and_said_to_be():
    at = upload(open_page(), ("scores.csv", b"id,en,fr\n1,Hello.,Bonjour.\n2,Bye.,Salut.\n",
                              "text/csv"))
    assert list(table(at).Code) == ["en", "fr"]  # not "id", read as Indonesian
    assert [i.value for i in at.info] == [
        "Left out 'id': no letters in it (numbers or ids, not sentences in a language)."]


@pytest.mark.parametrize(
    "files, where",
    [
        (("bad.csv", b"en,fr\nOne,Un\nTwo\n", "text/csv"), "bad.csv, line 3"),
        (("bad.csv", b"en,fr\nOne,Un\nTwo,\n", "text/csv"), "line 3: the 'fr' cell is empty"),
        ([("en.txt", b"1\n2\n3\n", "text/plain"), ("fr.txt", b"1\n2\n", "text/plain")],
         "fr.txt ends after line 2 but en.txt has 3 lines"),
    ],
)
def test_misaligned_upload_errors_clearly_and_keeps_the_corpus(files, where):
    at = upload(open_page(), files)
    assert len(at.error) == 1 and where in at.error[0].value.replace("\\", "")
    assert len(table(at)) == len(parallel_sample().codes)  # still the bundled sample


def test_an_upload_named_in_markdown_is_named_as_it_is():
    at = upload(open_page(), ("$x$ **b**.csv", b"en,fr\nOne,Un\nTwo\n", "text/csv"))
    # Unescaped, the message drew '$x$ ' as maths and 'b' in bold.
    assert at.error[0].value.startswith(r"\$x\$ \*\*b\*\*\.csv, line 3")


def test_a_parallel_corpus_over_the_upload_limit_is_refused_before_it_is_read(monkeypatch):
    from ui.shared import upload_limit

    monkeypatch.setattr(upload_limit, "limit_mb", lambda: 1)
    monkeypatch.setattr(languages, "read_upload", lambda files: pytest.fail("it was read"))
    at = upload(open_page(), ("big.tsv", b"en\tfr\n" + b"One.\tUn.\n" * 200_000, "text/plain"))
    assert [e.value.replace("\\", "") for e in at.error] == [
        "big.tsv is 1.7 MB, more than the 1 MB a parallel corpus may have here. Load a part of "
        "it. To allow more, raise `maxUploadSize` under `[server]` in `.streamlit/config.toml` "
        "and restart the app. The page still measures Parallel sample."]
    assert len(table(at)) == len(parallel_sample().codes)  # still the bundled sample


def merge_counts(at: AppTest):
    """The merge-count picker of the Vocabulary size tab (keyed by the tokenizer)."""
    open_tab(at, "Vocabulary size")
    [picker] = [m for m in at.multiselect if m.key.startswith("lang_merge_counts_")]
    return picker


def test_vocabulary_size_curve_has_one_point_per_merge_count():
    at = open_page()
    tok = at.session_state["tokenizers"][at.session_state["tokenizer"]]
    merge_counts(at).set_value([0, 10, 100]).run()
    curve = chart(at, "lang_curve")
    assert len(curve["data"]) == len(parallel_sample().codes)
    assert all(trace["x"] == [tok.n_base, tok.n_base + 10, tok.n_base + 100]
               for trace in curve["data"])
    english = next(trace for trace in curve["data"] if trace["name"] == "English")
    assert english["y"] == [1.0, 1.0, 1.0]


def test_any_merge_count_can_be_typed_in():
    at = open_page()
    merge_counts(at).set_value([0, 100]).run()
    [box] = [n for n in at.number_input if n.key.startswith("lang_merge_add_")]
    box.set_value(37).run()
    assert merge_counts(at).value == [0, 37, 100]
    assert chart(at, "lang_curve")["data"][0]["x"][1] == 256 + 37
    assert [n for n in at.number_input if n.key.startswith("lang_merge_add_")][0].value is None


def test_another_tokenizer_starts_from_its_own_merge_counts():
    at = open_page()
    merge_counts(at).set_value([0, 10]).run()
    at.number_input(key="lang_train_size").set_value(600).run()
    at.button(key="lang_train").click().run()
    focus = at.session_state["tokenizers"][at.selectbox(key="lang_focus").value]
    n = len(focus.merges)  # 600 - 256 = 344 merges
    assert n == 344 and merge_counts(at).value == [0, 10, 20, 50, 100, 200, 344]  # its own
    assert chart(at, "lang_curve")["data"][0]["x"][-1] == focus.vocab_size


def test_train_on_the_parallel_sample_in_one_click():
    at = open_page()
    at.number_input(key="lang_train_size").set_value(600).run()
    at.button(key="lang_train").click().run()
    assert not at.exception
    name = "Parallel sample byte-level 600"
    tok = at.session_state["tokenizers"][name]
    assert (tok.unit, tok.config["pretokenizer"], tok.vocab_size) == ("byte", "gpt2", 600)
    assert at.session_state["tokenizer"] == name  # it became the active one
    assert name in at.multiselect(key="lang_tokenizers").value
    assert at.selectbox(key="lang_focus").value == name
    heatmap = chart(at, "lang_heatmap")
    assert heatmap["data"][0]["x"] == ["English byte-level 1k", name]
    # A balanced corpus lowers the premium of a script English never taught.
    df = table(at)
    premiums = df[df.Code == "hi"].set_index("Tokenizer").Premium
    assert premiums[name] < premiums["English byte-level 1k"]


def test_side_by_side_colours_each_chosen_language():
    at = open_tab(open_page(), "Side by side")
    at.multiselect(key="lang_side_langs").set_value(["en", "my"]).run()
    tok = at.session_state["tokenizers"][at.session_state["tokenizer"]]
    corpus = parallel_sample()
    bodies = [h.proto.body for h in at.get("html") if "bpe-tokens" in h.proto.body]
    assert len(bodies) == 2
    for code, body in zip(["en", "my"], bodies):
        assert body.count('<span class="t') == len(tok.spans(corpus.sentences(code)[0]))


@pytest.fixture()
def references(monkeypatch):
    """Reference encodings as tests say: ``references.loadable`` name -> tokenizer (loaded by a
    stand-in for tiktoken); the others are offline."""
    from ui.shared import loaders

    class References:
        loadable: dict[str, bpe_core.Tokenizer] = {}

    def why(name):
        return None if name in References.loadable else "offline (no network in tests)"

    monkeypatch.setattr(loaders, "unavailable", why)
    monkeypatch.setattr(loaders, "reference_encoding", lambda name: References.loadable[name])
    loaders.forget_references()
    yield References
    loaders.forget_references()  # the stand-ins must not outlive the test


def test_references_are_listed_only_when_they_load(references):
    gpt2 = bpe_core.train(["a tiny stand-in"], unit="byte", max_merges=3, min_frequency=1)
    references.loadable = {"gpt2": gpt2}
    at = open_page()
    title = bpe_core.REFERENCE_ENCODINGS["gpt2"].title
    assert title in at.multiselect(key="lang_tokenizers").value  # compared by default
    rows = table(at)[lambda df: df.Tokenizer == title].set_index("Code")
    en = parallel_sample().sentences("en")
    assert rows.loc["en", "Tokens"] == sum(len(gpt2.encode(s)) for s in en)
    assert not any("cl100k" in o for o in at.multiselect(key="lang_tokenizers").options)
    [line] = [c.value for c in at.caption if "Not offered" in c.value]
    # The page offers one encoding per generation (GPT-2, GPT-4, GPT-4o): only those are named.
    assert line.startswith("Not offered: cl100k_base, o200k_base, offline (no network in "
                           "tests).")
    assert "\n" not in line and "ConnectionError" not in line
    # Loaded from its own file, an encoding is no longer said to be missing.
    at.session_state["tokenizers"] = {**at.session_state["tokenizers"],
                                      "cl100k_base": gpt2.renamed("cl100k_base")}
    at.run()
    [line] = [c.value for c in at.caption if "Not offered" in c.value]
    assert line.startswith("Not offered: o200k_base, offline")


def test_one_entry_per_distinct_tokenizer(references):
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    active = at.session_state["tokenizers"][at.session_state["tokenizer"]]
    # The reference that loads is the active tokenizer under another name, and the session
    # holds a second copy of it: all three are one tokenizer, offered once, as the active one.
    references.loadable = {"gpt2": active.renamed("gpt2")}
    at.session_state["tokenizers"] = {**at.session_state["tokenizers"],
                                      "the same again": active.renamed("the same again")}
    at.switch_page(PAGE).run()
    assert not at.exception
    assert at.multiselect(key="lang_tokenizers").options == [active.name]
    assert list(table(at).Tokenizer.unique()) == [active.name]


def test_the_balanced_tokenizer_is_scored_on_held_out_sentences():
    at = open_page()
    at.number_input(key="lang_train_size").set_value(600).run()
    at.button(key="lang_train").click().run()
    corpus = parallel_sample()
    assert corpus.n_sentences == 32
    name = "Parallel sample byte-level 600"
    # Trained on sentences 1-24 of every language, nothing else.
    train = [s for code in corpus.codes for s in corpus.sentences(code)[:24]]
    expected = bpe_core.train(train, 600, unit="byte", pretokenizer="gpt2", min_frequency=2)
    assert at.session_state["tokenizers"][name].fingerprint() == expected.fingerprint()
    [note] = [i.value for i in at.info if "held-out" in i.value]
    assert "held-out sentences 25–32 (8 of 32)" in note and "learned from sentences 1–24" in note
    assert "sentences 1–24 of each language; sentences 25–32 are held out" in " ".join(
        m.value for m in at.markdown)
    # Every tokenizer in the comparison is scored on sentences 25-32 only.
    df = table(at)
    assert set(df.Sentences) == {8}
    other = at.session_state["tokenizers"]["English byte-level 1k"]
    rows = df[df.Tokenizer == "English byte-level 1k"].set_index("Code")
    for code in ("en", "hi"):
        assert rows.loc[code, "Tokens"] == sum(len(other.encode(s))
                                              for s in corpus.sentences(code)[24:])
    boxes = chart(at, "lang_boxes")
    assert boxes["data"][0]["customdata"] == list(range(25, 33))
    assert open_tab(at, "Side by side").selectbox(key="lang_side_sentence").format_func(
        0).startswith("25. ")
    # Without it in the comparison, all sentences are scored again.
    at.multiselect(key="lang_tokenizers").set_value(["English byte-level 1k"]).run()
    assert set(table(at).Sentences) == {32} and not any("held-out" in i.value for i in at.info)


def test_charts_have_titles_and_file_names():
    at = open_page()
    focus = at.selectbox(key="lang_focus").value
    titles = {}
    for key in ("lang_bars", "lang_heatmap", "lang_boxes", "lang_curve", "lang_vocab_use",
                "lang_vocab_scripts"):
        open_tab(at, CHART_TABS[key])
        [proto] = [c.proto for c in at.get("plotly_chart") if c.proto.id.endswith(f"-{key}")]
        title = json.loads(proto.spec)["layout"]["title"]["text"]
        options = json.loads(proto.config)["toImageButtonOptions"]
        titles[key] = (title, options["filename"])
    assert titles["lang_bars"] == (
        f"Tokenization premium with {focus} (baseline English)",
        "tokenization-premium-with-english-byte-level-1k-baseline-english")
    title, file = titles["lang_vocab_scripts"]  # (the title wrapped to the donut's column)
    assert (title.replace("<br>", " "), file) == (
        f"The vocabulary of {focus} by writing system",
        "the-vocabulary-of-english-byte-level-1k-by-writing-system")
    assert len({f for _, f in titles.values()}) == len(titles)  # each names what it shows


def test_the_vocabulary_donut_groups_tokens_as_the_vocabulary_page_does():
    # It had groups of its own, {byte fragments 128, Common 82} where the Vocabulary page's
    # table says {Partial UTF-8 128, Punctuation & symbols 59, Digits 13, Whitespace 10}.
    at = open_page()
    tok = at.session_state["tokenizers"]["English byte-level 1k"]
    [donut] = chart(at, "lang_vocab_scripts")["data"]
    shown = dict(zip(donut["labels"], donut["values"]))
    table = systems_table(vocabulary_frame(tok))  # the Vocabulary page's, in its order
    assert list(shown.items()) == list(zip(table["writing system"], table["tokens"]))
    assert {k: shown[k] for k in list(shown)[1:]} == {
        "Digits": 13, "Punctuation & symbols": 59, "Whitespace": 10, "Partial UTF-8": 128}
    assert list(shown)[0] == "Latin" and shown["Latin"] == tok.vocab_size - 210
    # Scripts in their colours, the rest in the Vocabulary page's greys.
    assert donut["marker"]["colors"] == [script_colour(s) for s in shown]
    assert donut["marker"]["colors"][1:] == [GREYS[s] for s in list(shown)[1:]]
    assert any(c.value.startswith("Writing systems as the Vocabulary page counts them. Each "
                                  "token counts once") for c in at.caption)


def test_a_tokenizer_named_in_markdown_is_named_as_it_is_in_the_bars_choice():
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    tok = at.session_state["tokenizers"][at.session_state["tokenizer"]]
    name = "**bold** $x^2$"  # the radio's labels are Markdown: this was bold, then maths
    other = bpe_core.train("hug pug", unit="byte", max_merges=1, min_frequency=1, name="other")
    at.session_state["tokenizers"] = {name: tok.renamed(name), "other": other}
    at.session_state["tokenizer"] = name
    at.switch_page(PAGE).run()
    at.multiselect(key="lang_tokenizers").set_value([name, "other"]).run()
    assert not at.exception
    assert at.radio(key="lang_bars_for").options[0] == r"\*\*bold\*\* \$x^2\$"


def test_every_tokenizer_in_one_chart_languages_sorted_by_their_mean_premium():
    at = open_page()
    at.number_input(key="lang_train_size").set_value(600).run()
    at.button(key="lang_train").click().run()  # a balanced tokenizer joins the comparison
    chosen = at.multiselect(key="lang_tokenizers").value
    assert len(chosen) == 2
    at.radio(key="lang_bars_for").set_value("all").run()
    assert not at.exception
    df = table(at)
    grouped = chart(at, "lang_bars_all")
    assert [t["name"] for t in grouped["data"]] == chosen
    for trace in grouped["data"]:
        rows = df[df.Tokenizer == trace["name"]].set_index("Language")
        assert trace["y"] == [rows.loc[x, "Premium"] for x in trace["x"]]
    means = df.groupby("Language").Premium.mean()
    assert grouped["data"][0]["x"] == sorted(means.index, key=lambda lang: means[lang])
    assert chart(at, "lang_heatmap")["data"][0]["y"] == grouped["data"][0]["x"]  # one order
    assert grouped["layout"]["title"]["text"] == (
        f"Tokenization premium of {len(chosen)} tokenizers (baseline English)")
    # With one tokenizer there is nothing to group: the one chart, coloured by script.
    at.multiselect(key="lang_tokenizers").set_value(chosen[:1]).run()
    assert "lang_bars_for" not in [r.key for r in at.radio] and chart(at, "lang_bars")


def test_a_script_keeps_its_colour_in_another_corpus():
    def colours(at):
        return {t["name"]: t["marker"]["color"] for t in chart(at, "lang_bars")["data"]}

    at = open_page()
    bundled = colours(at)
    # Cyrillic comes first here, Latin first in the sample: the colours follow the script.
    at = upload(at, ("two.csv", "ru,ja,en\nпривет,こんにちは,hello\n".encode(), "text/csv"))
    other = colours(at)
    assert set(other) == {"Cyrillic", "Japanese", "Latin"}
    assert all(other[s] == bundled[s] for s in other)


def test_hostile_text_is_measured_and_shown_as_text():
    family = "\U0001F469\u200d\U0001F469\u200d\U0001F467"  # an emoji ZWJ sequence
    data = ("en,<script>alert(1)</script>\n"
            f"Hello.,<script>alert(2)</script>\u202e\u200b{family}\n").encode()
    at = upload(open_page(), ("hostile.csv", data, "text/csv"))
    df = table(at)
    assert list(df.Language) == ["English", "<script>alert(1)</script>"]
    open_tab(at, "Side by side")
    at.multiselect(key="lang_side_langs").set_value(["<script>alert(1)</script>"]).run()
    bodies = [h.proto.body for h in at.get("html") if "bpe-tokens" in h.proto.body]
    assert len(bodies) == 1
    assert "<script>" not in bodies[0] and ">&lt;</span>" in bodies[0]  # "<" is its own token
    assert "\u202e" not in bodies[0]  # the right-to-left override is shown as a marker


def random_corpus(seed: int, codes: list[str], *, words: int, per_sentence: int
                  ) -> tuple[list[str], str]:
    """A large parallel corpus of made-up words: its 500 rows, and the whole TSV file."""
    rng = random.Random(seed)
    vocabulary = ["".join(rng.choices("abcdefghijklmnopqrstuvwxyzäöüéè", k=rng.randint(2, 9)))
                  for _ in range(words)]
    rows = ["\t".join(" ".join(rng.choices(vocabulary, k=per_sentence)) for _ in codes)
            for _ in range(500)]
    return rows, "\t".join(codes) + "\n" + "\n".join(rows) + "\n"


def test_a_large_corpus_is_measured_in_a_worker_that_can_be_cancelled():
    rows, tsv = random_corpus(7, ["en", "de", "fr"], words=20_000, per_sentence=70)
    size = sum(len(row) - 2 for row in rows)  # every sentence's characters, not the tabs
    assert size >= language_jobs.BACKGROUND_CHARACTERS  # with the one tokenizer of the session
    hold = Hold("languages-counts")
    at = upload(open_page(), ("big.tsv", tsv.encode(), "text/tab-separated-values"))
    job = hold.held()
    what = f"Encoding {size:,} characters with 1 tokenizer"
    assert any(b.startswith(f"{what} in the background…") for b in bars(at))
    assert not at.dataframe and not at.tabs  # no table until it is measured
    hold.cancel(at)
    assert [i.value for i in at.info] == [f"{what} was cancelled."]
    # Started again, it says which tokenizer and language it is on, and the tables follow.
    at.button(key=f"{languages.COUNTS_JOB}_again").click().run()
    _, job = at.session_state[languages.COUNTS_JOB]
    deadline = time.monotonic() + 60
    while not job.message and not job.finished and time.monotonic() < deadline:
        time.sleep(0.01)
    assert job.finished or re.fullmatch(  # names as markdown shows them literally
        r"English byte\\-level 1k: (English|German|French)", job.message)
    assert job.wait(timeout=60) == "done"
    at.run()
    tok = at.session_state["tokenizers"][at.session_state["tokenizer"]]
    german = [row.split("\t")[1] for row in rows]
    assert table(at).set_index("Code").loc["de", "Tokens"] == sum(
        len(tok.encode(s)) for s in german)
    # The curve encodes the corpus at each merge count when its tab opens: a worker too, and
    # cancelled as well.
    assert languages.CURVE_JOB not in at.session_state
    curving = Hold("languages-curve")
    open_tab(at, "Vocabulary size")
    job = curving.held()
    n = len(at.multiselect(key=f"lang_merge_counts_{tok.fingerprint()}").value)
    assert f"Encoding {size:,} characters at {n} merge counts in the background…" in bars(at)
    curving.cancel(at)
    assert len(table(at)) == 3  # the tables stay
    # Another session measuring the same corpus with the same tokenizer finds the counts kept.
    other = upload(open_page(), ("big.tsv", tsv.encode(), "text/tab-separated-values"))
    assert languages.COUNTS_JOB not in other.session_state
    assert table(other).equals(table(at))
    assert languages.CURVE_JOB not in other.session_state  # its tab was not opened


def test_a_balanced_tokenizer_on_a_large_corpus_is_trained_in_a_worker():
    _, tsv = random_corpus(11, ["en", "de", "fr", "es"], words=5_000, per_sentence=120)
    at = upload(open_page(), ("big.tsv", tsv.encode(), "text/tab-separated-values"))
    sentences = languages.balanced_sentences(at.session_state[languages.CORPUS_KEY])
    assert sum(map(len, sentences)) >= language_jobs.TRAIN_CHARACTERS
    at.number_input(key="lang_train_size").set_value(400).run()
    at.button(key="lang_train").click().run()
    asked = at.session_state[view.TRAIN_ASKED]
    _, job = at.session_state[view.TRAIN_JOB]
    assert asked[1] == 400 and job.kind == "languages-train"
    assert job.wait(timeout=120) == "done"
    at.run()
    assert not at.exception
    name = "big.tsv byte-level 400"
    assert at.session_state["tokenizer"] == name
    assert name in at.multiselect(key="lang_tokenizers").value
    assert view.TRAIN_ASKED not in at.session_state and view.TRAIN_JOB not in at.session_state
    expected = language_jobs.train_balanced(sentences, 400, report=Reporter(None))
    assert [m.token for m in at.session_state["tokenizers"][name].merges] == [
        m.token for m in expected.merges]


def test_the_fallback_card_names_what_the_focus_tokenizer_falls_back_on():
    """A character tokenizer without byte fallback reads what it never saw as [UNK]: the card
    says so, and a warning says that such counts look cheap; a byte-level one's card counts
    partial characters, with no warning."""
    unknown = bpe_core.train("the cat sat on the mat", unit="char", pretokenizer="whitespace",
                             max_merges=5, min_frequency=1, name="tiny char")
    at = AppTest.from_file(APP, default_timeout=120)
    corpus = make_corpus("cat", documents=["the cat sat on the mat"], source="sample")
    at.session_state["corpora"], at.session_state["corpus"] = {corpus.name: corpus}, corpus.name
    at.session_state["tokenizers"] = {unknown.name: unknown}
    at.session_state["tokenizer"] = unknown.name
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception
    labels = [m.label for m in at.metric]
    assert "Most [UNK]" in labels and "Most byte fallback" not in labels
    [warning] = [w.value.replace("\\", "") for w in at.warning]
    assert warning.startswith("tiny char reads much of ") and "as [UNK] (" in warning
    assert "(Russian — русский 100%, " in warning and "28 languages" in warning

    default = open_page()
    labels = [m.label for m in default.metric]
    assert "Most partial characters" in labels and not default.warning

    # The file's own unknown token names them: the first GPT's is <unk> (it said [UNK]).
    gpt1 = bpe_core.loads(char_bpe_file(), source="tokenizer.json").renamed("gpt1")
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["corpora"], at.session_state["corpus"] = {corpus.name: corpus}, corpus.name
    at.session_state["tokenizers"] = {gpt1.name: gpt1}
    at.session_state["tokenizer"] = gpt1.name
    at.run()
    at.switch_page(PAGE).run()
    assert "Most <unk>" in [m.label for m in at.metric]
    [warning] = [w.value.replace("\\", "") for w in at.warning]
    assert warning.startswith("gpt1 reads much of ") and "as <unk> (" in warning


def test_the_wide_table_keeps_tokenizer_and_language_pinned():
    """Its eleven columns scroll sideways in a 1280-px window: the two that say what a row is
    stay in view."""
    columns = json.loads(open_tab(open_page(), "Table").dataframe[0].proto.columns)
    assert {n for n, c in columns.items() if c.get("pinned")} == {"Tokenizer", "Language"}


def test_a_language_named_in_markdown_is_named_as_it_is_in_captions_and_help():
    # An uploaded column's header names its language: as the baseline, its name went into the
    # bar chart's caption and the dearest language's help raw, so "**" made bold and "$" maths.
    name = "Zq**b** $m$ :red[r]"
    data = f'en,"{name}"\nHello there friends.,Zzzz qqqq xxxxx yyyyyy zzzz qqqq.\n'.encode()
    at = upload(open_page(), ("named.csv", data, "text/csv"))
    at.selectbox(key="lang_baseline").set_value(name).run()
    assert not at.exception
    shown = r"Zq\*\*b\*\* \$m\$ \:red\[r\]"
    caption = next(c.value for c in at.caption if c.value.startswith("Tokens each language"))
    assert caption.startswith("Tokens each language needs with **English byte\\-level 1k**, "
                              f"divided by {shown}'s, for the same 1 sentence.")
    helps = [m.proto.help for m in at.metric if m.label == "Most expensive"]
    assert helps == [f"English needs 0.28 times the tokens {shown} needs."]


def test_training_on_a_small_corpus_stops_a_large_ones_training_under_way():
    from tests.app.test_train_long_work import asleep

    pool = work.pool()  # every worker busy with another tab's job: this tab's jobs wait queued
    busy = [pool.submit(f"hold{k}", "another tab", asleep) for k in range(pool.workers)]
    try:
        _, tsv = random_corpus(12, ["en", "de", "fr", "es"], words=5_000, per_sentence=120)
        at = upload(open_page(), ("big.tsv", tsv.encode(), "text/tab-separated-values"))
        at.button(key="lang_train").click().run()
        _, job = at.session_state[view.TRAIN_JOB]
        assert job.state == "queued"
        at.button(key="lang_back").click().run()  # the bundled sample: trained at once
        at.button(key="lang_train").click().run()
        assert not at.exception
        assert job.state == "cancelled" and job not in pool.jobs()
    finally:
        for held in busy:
            pool.cancel(held)


def test_a_tokenizer_made_active_in_the_sidebar_is_compared_and_detailed():
    # The page compares four tokenizers at first; picking a fifth in the sidebar left the page
    # comparing the four and detailing one of them, though the sidebar named the fifth active.
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    hug = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    for n in range(1, 5):
        at.session_state["tokenizers"][f"hug {n}"] = bpe_core.train(
            hug, max_merges=n, unit="char", pretokenizer="whitespace", min_frequency=1,
            name=f"hug {n}")
    at.switch_page(PAGE).run()
    assert at.multiselect(key="lang_tokenizers").value == [
        "English byte-level 1k", "hug 1", "hug 2", "hug 3"]
    at.sidebar.selectbox(key="sidebar_tokenizer").set_value("hug 4").run()
    assert not at.exception
    assert at.multiselect(key="lang_tokenizers").value == [
        "English byte-level 1k", "hug 1", "hug 2", "hug 3", "hug 4"]
    assert at.selectbox(key="lang_focus").value == "hug 4"
    assert any(c.value.startswith("Tokens each language needs with **hug 4**")
               for c in at.caption)
    # Taken out of the comparison, it stays out while it is still the active one.
    at.multiselect(key="lang_tokenizers").set_value(["English byte-level 1k", "hug 1"]).run()
    assert at.multiselect(key="lang_tokenizers").value == ["English byte-level 1k", "hug 1"]
