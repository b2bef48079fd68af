"""Training's options, where they stop, and what they mean beside `tokenizers`' BpeTrainer."""

import bpe_core


def test_a_trainer_keeps_both_limits_for_its_next_corpus():
    # vocab_size 12 with max_merges 3: on "ab ab" (3 base symbols) max_merges is the tighter,
    # and the trainer dropped vocab_size for good, so the next corpus, of 11 base symbols,
    # got 3 merges and 14 tokens where vocab_size allows 1 merge.
    trainer = bpe_core.Trainer(12, max_merges=3, unit="char", pretokenizer="whitespace",
                               min_frequency=1)
    tok = trainer.fit("ab ab ab")
    assert (len(tok.merges), tok.stop_reason) == (1, "no_pairs")
    assert (tok.config["vocab_size"], tok.config["max_merges"]) == (12, 3)
    tok = trainer.fit("abcdefghij " * 3)
    assert (len(tok.merges), tok.vocab_size, tok.stop_reason) == (1, 12, "vocab_size")
    tok = trainer.fit("abcd " * 5)  # 5 base symbols: 7 merges left by vocab_size, 3 by max_merges
    assert (len(tok.merges), tok.vocab_size, tok.stop_reason) == (3, 8, "max_merges")
