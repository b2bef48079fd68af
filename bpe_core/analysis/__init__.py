"""Looking at corpora and tokenizers, for the playground's pages and for anyone else:

* ``uploads``: reading an uploaded corpus (text, CSV, JSONL, Parquet, gzip) into documents,
  its bytes made text by ``upload_text`` and its tables read by ``upload_tables``;
* ``stats`` and ``scripts``: corpus statistics and the Unicode script of text;
* ``vocabulary``: a row per token to browse and search, token frequencies, two vocabularies
  compared;
* ``parallel`` and ``premium``: the same sentences in several languages and what each costs in
  tokens (the "tokenization premium" of Petrov et al. 2023);
* ``word_counts``: a word-frequency table typed by hand (``hug 10, pug 5``);
* ``compress``: Gage's 1994 byte-pair compression, the algorithm BPE tokenization comes from.
"""
