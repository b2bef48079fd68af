"""The Languages page with the shapes of real models' files: what it says about them."""

from __future__ import annotations

import csv
import io

from tokenizers import Tokenizer as HFTokenizer
from tokenizers import models
from tokenizers import pre_tokenizers as P

from tests.app.test_languages_page import (chart, merge_counts, open_page, open_tab, table,
                                         upload)
from tests.app.test_loaded_models_page import load
from tests.model_files import char_bpe_file
from ui.shared.tokens import md_escape


def made_twice_file() -> bytes:
    """Four merges making three tokens (``abc`` twice: ``ab`` + ``c`` and ``a`` + ``bc``), as
    files converted from SentencePiece list every split of a token (Llama 2's, Gemma's)."""
    vocab = {"a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4, "abc": 5}
    merges = [("a", "b"), ("b", "c"), ("ab", "c"), ("a", "bc")]
    tok = HFTokenizer(models.BPE(vocab, merges))
    tok.pre_tokenizer = P.WhitespaceSplit()
    return tok.to_str().encode("utf-8")


def test_the_vocabulary_size_axis_counts_the_tokens_merges_make_not_the_merges():
    # It drew the last point at 3 base symbols + 4 merges = 7 tokens, for a vocabulary of 6
    # (Llama 3's at 280,403 tokens, Llama 2's at 62,534: their vocabularies hold 128,256, 32,000).
    at = upload(open_page(), ("abc.csv", b"en,fr\nabc ab,ab c bc\n", "text/csv"))
    load(at, made_twice_file(), key="lang_load")
    assert merge_counts(at).value == [0, 4]
    curve = chart(at, "lang_curve")
    assert [trace["x"] for trace in curve["data"]] == [[3, 6], [3, 6]]


def test_one_sentence_one_script_and_one_token_are_said_in_the_singular():
    # The page said "1 sentences in 2 languages (1 scripts)", "over 1 languages", "for the same
    # 1 sentences", "1 tokens" and "at 1 merge counts".
    at = upload(open_page(), ("one.csv", b"en,fr\nThe,de\n", "text/csv"))
    assert at.expander[0].label == ("**Parallel corpus:** one.csv — 1 sentence in 2 languages "
                                    "(1 script)")
    assert [m.proto.delta for m in at.metric][2] == "over 1 language"
    captions = [c.value for c in at.caption]
    assert ("Tokens each language needs with **English byte\\-level 1k**, divided by English's, "
            "for the same 1 sentence. Colours are scripts.") in captions
    side_langs(at).set_value(["en", "fr"]).run()
    assert [m.value for m in at.markdown if m.value.startswith("**")] == [
        "**English** · 1 token · 1.00× · 3 characters",
        "**French — français** · 2 tokens · 2.00× · 2 characters"]
    merge_counts(at).set_value([0]).run()
    assert any(c.value.startswith("**English byte\\-level 1k** at 1 merge count. With no merges")
               for c in at.caption)
    at = upload(at, ("long.csv", b"en,fr\n" + b"The,de\n" * 501, "text/csv"))
    assert [i.value for i in at.info] == [
        "Measuring the first 500 sentences of each language; 1 more was left out to keep the "
        "page quick."]


def side_langs(at):
    """The Side by side tab's languages, the tab opened."""
    return open_tab(at, "Side by side").multiselect(key="lang_side_langs")


def side_by_side(at) -> list[str]:
    """The line above each sentence of the Side by side tab."""
    return [m.value for m in at.markdown if m.value.startswith("**")]


def test_side_by_side_names_the_fallback_tokens_the_tokenizer_has():
    # Every tokenizer's were "byte-fallback": the first GPT's <unk> and the pieces of a
    # character a byte-level vocabulary lacks too.
    at = upload(open_page(), ("cat.csv", "en,ru\nThe,кот\n".encode(), "text/csv"))
    side_langs(at).set_value(["en", "ru"]).run()
    assert side_by_side(at)[1] == ("**Russian — русский** · 6 tokens · 6.00× · 3 characters · "
                                   "6 partial\\-character tokens")
    load(at, char_bpe_file(), key="lang_load")
    at.multiselect(key="lang_side_langs").set_value(["en", "ru"]).run()
    assert side_by_side(at)[1] == ("**Russian — русский** · 3 tokens · 3.00× · 3 characters · "
                                   "3 \\<unk\\> tokens")


def test_an_uploaded_corpus_is_shown_side_by_side_in_its_own_languages():
    # Only English was left: the picks made for the bundled sample (Indonesian, Korean, Tamil) were
    # kept where the upload had them, so none of its other languages showed.
    at = open_tab(open_page(), "Side by side")
    assert at.multiselect(key="lang_side_langs").value == ["en", "id", "ko", "ta"]
    at = upload(at, ("three.csv", "en,de,ja\nThe cat.,Die Katze.,猫。\n".encode(), "text/csv"))
    assert at.multiselect(key="lang_side_langs").value == ["en", "ja", "de"]  # by premium
    assert [line.split(" · ")[0] for line in side_by_side(at)] == [
        "**English**", "**Japanese — 日本語**", "**German — Deutsch**"]


def test_a_baseline_the_tokenizer_spells_with_no_tokens_is_said_not_a_traceback():
    # A tokenizer with no unknown token drops what it cannot spell: Russian cost 0 tokens, and
    # taking it as the baseline raised "ValueError: Encountered all NA values" (the cards), and
    # ZeroDivisionError (the Side by side tab).
    at = upload(open_page(), ("abc.csv", "en,ru\nabc,кот\n".encode(), "text/csv"))
    name = load(at, made_twice_file(), key="lang_load")
    at.selectbox(key="lang_baseline").set_value("ru").run()
    assert not at.exception and not at.metric
    assert [w.value for w in at.warning] == [
        f"{md_escape(name)} encodes Russian — русский's sentences "
        "as 0 tokens (a tokenizer with no unknown token and no byte fallback drops the characters "
        "it has no token for), so no premium can be taken against them: pick another baseline "
        "language."]
    side_langs(at).set_value(["ru", "en"]).run()
    assert side_by_side(at) == ["**Russian — русский** · 0 tokens · no premium · 3 characters",
                                "**English** · 1 token · no premium · 3 characters"]


def test_one_held_out_sentence_is_named_in_the_singular():
    # A two-sentence corpus was split into "sentences 1" and "sentences 2 are held out".
    at = upload(open_page(), ("two.csv", b"en,fr\nThe cat.,Le chat.\nThe dog.,Le chien.\n",
                              "text/csv"))
    assert any(m.value.endswith("It learns from sentence 1 of each language; sentence 2 is "
                                "held out to score it.") for m in at.markdown)
    at.number_input(key="lang_train_size").set_value(300).run()
    at.button(key="lang_train").click().run()
    name = at.selectbox(key="lang_focus").value
    assert [i.value for i in at.info] == [
        f"Every tokenizer is scored on the held-out sentence 2 (1 of 2): **{md_escape(name)}** "
        "learned from sentence 1, so scoring it on that one would flatter it."]


def test_a_long_sentence_is_drawn_side_by_side_up_to_its_first_tokens():
    # Every token was drawn: a 95,000-character line took 10 s and 7.6 MB of HTML a language.
    at = upload(open_page(), ("long.tsv", b"en\tfr\n" + b"The cat, " * 1200 + b"\tLe chat.\n",
                              "text/tab-separated-values"))
    side_langs(at).set_value(["en", "fr"]).run()
    assert side_by_side(at)[0] == "**English** · 4,800 tokens · 1.00× · 10,799 characters"
    drawn = [h.proto.body.count('data-i="') for h in at.get("html") if 'data-i="' in h.proto.body]
    assert drawn == [2_000, 5]  # "Le chat." whole
    assert "The first 2,000 of its 4,800 tokens are drawn." in [c.value for c in at.caption]


def test_charts_write_a_dash_where_there_is_no_premium():
    # They wrote "nan×" over the bars and in the heatmap's cells and hovers.
    at = upload(open_page(), ("abc.csv", "en,ru\nabc,кот\n".encode(), "text/csv"))
    load(at, made_twice_file(), key="lang_load")
    at.selectbox(key="lang_baseline").set_value("ru").run()
    assert [trace["text"] for trace in chart(at, "lang_bars")["data"]] == [["–"], ["–"]]
    assert chart(at, "lang_heatmap")["data"][0]["text"] == [["0.33×", "–"], ["1.00×", "–"]]


def test_a_tokenizer_that_drops_what_it_cannot_spell_is_not_said_to_have_an_unknown_token():
    # The fallback card read 'Most [UNK] 0%' for a file with no unknown token, naming a token
    # it does not have, while Russian, dropped whole, passed for the cheapest language.
    at = upload(open_page(), ("abc.csv", "en,ru,fr\nabc,кот,ab c\n".encode(), "text/csv"))
    name = load(at, made_twice_file(), key="lang_load")
    assert not at.exception
    card = at.metric[3]
    assert (card.label, card.value) == ("Unknown characters", "dropped")
    assert [w.value for w in at.warning] == [
        f"{md_escape(name)} has no unknown token and no byte fallback: it drops every character "
        "its vocabulary has no token for, and a dropped character costs no token, so a language "
        "it cannot spell looks cheap here: see the cheapest, Russian — русский at 0.00×, side "
        "by side."]


def test_a_tokenizer_that_drops_what_it_cannot_spell_has_no_unknown_token_to_name():
    # unknown_token() answered '[UNK]' for such a file, and fallback_kind() 'Most [UNK]' and
    # '[UNK] token', kept off the page only because each caller checked for dropping first.
    import bpe_core
    from ui.languages.view import fallback_kind, unknown_token
    tok = bpe_core.loads(made_twice_file())
    assert unknown_token(tok) is None
    assert fallback_kind(tok) == (
        "Dropped characters", "stand for nothing: it drops the characters its vocabulary lacks",
        "dropped character", "none for characters it lacks: it drops them")


def test_the_vocabulary_size_tab_says_what_a_lacking_character_costs_this_tokenizer():
    # Its caption said every character-level tokenizer spends 'per byte for characters it
    # lacks', though one with no byte fallback spends an unknown token, or drops them.
    at = upload(open_page(), ("abc.csv", b"en,fr\nabc ab,ab c bc\n", "text/csv"))
    load(at, made_twice_file(), key="lang_load")
    captions = [c.value for c in open_tab(at, "Vocabulary size").caption
                if "With no merges" in c.value]
    assert len(captions) == 1
    assert ("With no merges a character-level tokenizer spends a token per character (none for "
            "characters it lacks: it drops them)") in captions[0]
    layout = chart(at, "lang_curve")["layout"]
    assert layout["xaxis"]["title"]["text"] == (
        "vocabulary size (base symbols + the tokens the first k merges make)")


def test_the_results_csv_writes_names_a_spreadsheet_would_run_as_text():
    # A language headed '=HYPERLINK(...)' in an upload went raw into the table's CSV, which a
    # spreadsheet runs as a formula.
    from ui.languages import tabs

    at = upload(open_page(), ("abc.csv", b"en,=1+2\nab,ab\n", "text/csv"))
    shown = table(at)
    rows = list(csv.DictReader(io.StringIO(tabs.table_csv(shown).decode("utf-8-sig"))))
    assert [(r["Language"], r["Code"], r["Premium"]) for r in rows] == [
        ("English", "en", "1.0"), ("'=1+2", "'=1+2", "1.0")]


def test_side_by_side_isolates_a_right_to_left_name_from_the_numbers_after_it():
    # 'Arabic — العربية · 114 tokens' was drawn 'Arabic — 114 · العربية tokens': the bidi
    # algorithm took the number after the Arabic letters into their run.
    at = open_tab(open_page(), "Side by side")
    at.multiselect(key="lang_side_langs").set_value(["en", "ar", "he"]).run()
    lines = side_by_side(at)
    assert lines[0].startswith("**English** · ")
    assert lines[1].startswith("**\u2068Arabic — العربية\u2069** · ")
    assert lines[2].startswith("**\u2068Hebrew — עברית\u2069** · ")
