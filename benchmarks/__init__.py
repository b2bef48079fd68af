"""Side-by-side performance scripts: bpe_core beside Hugging Face tokenizers and tiktoken.

Run everything with ``python -m benchmarks``; see benchmarks/README.md.
"""
