"""What training keeps up to date after each merge, so that it never recounts the corpus.

The corpus is held as deduplicated words with their counts, each word a str of one character
per token id (``chr(id)``), and a pair of ids as the str of its two characters, which is what
the words hold where it occurs, keeps its hash once made (a tuple hashes anew at every look-up)
and sorts as the pair does; then

* ``counts``: pair -> occurrences, weighted by word count (every adjacent pair, as the textbook
  counts them, so "a a a" holds the pair (a, a) twice); an unwatched run keeps only the pairs
  that can still win;
* ``where``: pair -> indices of the words that hold it, in word order, for pairs that can still
  win (never shrunk eagerly: stale entries are skipped when met); a word once per occurrence,
  its repeats next to each other and skipped when met too (in C, which costs a third of
  dropping them up front for every pair, most of which never win); an ``array`` of 4-byte
  ints, which holds no object per entry (a tuple's ints cost memory, and time to free);
* a heap of the pairs that can still win (count at least ``min_frequency``) with lazy
  invalidation: an entry whose count fell is fixed only when it reaches the top. A pair born
  with a count well below the heap's top waits outside it (``pending``, by count) until the top
  comes down near it: most such pairs lose their count first and never cost a heap operation,
  and the heap stays small.

A merge touches only the words that hold the merged pair, and in them only the pairs next to each
merge site change. With words as str, finding the sites and rewriting a word are C loops
(``str.partition``, ``str.find``, ``str.replace``, which take the leftmost occurrence and go on
after it, as BPE does), linear in the word however many sites it has; a word also takes two bytes a
token rather than a list's eight.

>>> from bpe_core.alphabet import char_base
>>> base = char_base("hugpn", end_of_word=False)
>>> state = PairState({"hug": 10, "pug": 5, "pun": 12}, base, "first", 1)
>>> (a, b), count = state.pop_best()
>>> base.display(a) + base.display(b), count
('pu', 17)
>>> state.add_token((a, b)); state.merge((a, b), len(base))  # 17 sites
17
>>> [[state.display(i) for i in w] for w in state.segments()]
[['h', 'u', 'g'], ['pu', 'g'], ['pu', 'n']]
"""

from __future__ import annotations

import heapq
import operator
from array import array
from collections import Counter, defaultdict, deque
from collections.abc import Iterator
from itertools import chain, compress, pairwise, repeat

from ..alphabet import Base, token_display


class PairState:
    """The incremental data structures (see the module docstring)."""

    def __init__(self, word_counts: dict[str, int], base: Base, tie_break: str, floor: int,
                 watched: bool = True):
        self.base = base
        self.first = tie_break == "first"
        # Counts only ever fall once a pair exists, so a pair below min_frequency can never win:
        # it stays out of the heap, and only a watched run counts it (for n_tied).
        self.floor = floor
        self.keep = 1 if watched else floor  # the smallest count worth keeping
        words = _symbols(word_counts, base)
        self.wcounts = wcounts = list(word_counts.values())
        self.length = [0 if k == "eow" else 1 for k in base.kinds]  # base symbols per token
        # Token id -> display text, made when first asked for: a run nobody watches never asks,
        # and a byte-level merge's text costs a failed UTF-8 decode of its bytes more often
        # than not.
        self.shown: dict[int, str] = {}
        self.data = list(base.tokens)  # each token's bytes and whether it ends with </w>
        self.eow = [k == "eow" for k in base.kinds]
        # Pair -> the words it occurs in, a word once per occurrence, in word order; counts and
        # word sets are then made per pair, in C. The appends run in C too, all words' in one
        # go (map over their pairs, each beside its word's index, drained by a zero-length
        # deque): a Python loop per pair costs twice as much, and one per word a sixth more
        # (the multilingual 2.8 MB: 68,013 words, 1.49M pairs, 168 -> 141 ms).
        found: defaultdict[tuple[int, int], list[int]] = defaultdict(list)
        indices = chain.from_iterable(map(repeat, range(len(words)),
                                          map(operator.sub, map(len, words), repeat(1))))
        deque(map(list.append, map(found.__getitem__, chain.from_iterable(map(pairwise, words))),
                  indices), maxlen=0)
        # Every pair's count, its str (see the module docstring) and, if it can win, its words,
        # side by side in C loops (510,000 pairs in SuperBPE's stage 2 on 10 MB).
        pairs, lists = list(found), list(found.values())
        counts = list(map(sum, map(map, repeat(wcounts.__getitem__), lists)))
        keys = list(map(str.__add__, map(chr, map(operator.itemgetter(0), pairs)),
                        map(chr, map(operator.itemgetter(1), pairs))))
        kept = zip(keys, counts)
        self.counts = dict(kept if self.keep <= 1 else  # (every pair is counted once at least)
                           compress(kept, map(operator.ge, counts, repeat(self.keep))))
        # Only a pair that can win needs to know its words.
        wins = list(map(operator.ge, counts, repeat(floor)))
        self.where = dict(zip(compress(keys, wins),
                              map(array, repeat('I'), compress(lists, wins))))
        self.total = sum(map(operator.mul, map(len, words), wcounts))
        # Each word as a str of one character per token id: a merge is then str.partition or
        # str.replace, its sites str.find (C loops over two bytes a token), and a word takes a
        # quarter of a list's memory.
        self.words = ([w.decode("latin-1") for w in words] if isinstance(words[0], bytes)
                      else [''.join(map(chr, w)) for w in words])
        # What only a watcher needs (train() goes without): token id -> occurrences, and
        # count -> number of pairs with it (to report how many pairs tied).
        self.freq: dict[int, int] | None = None
        self.hist: dict[int, int] | None = None
        if watched:
            # A token occurs as the left of a pair or at the end of a word: counted so, from
            # the pairs and the words, rather than symbol by symbol (SuperBPE's stage 2 on
            # 10 MB: 0.9 -> 0.3 s; a whole document, with "none").
            self.freq = freq = {}
            for (a, _), c in zip(pairs, counts):
                freq[a] = freq.get(a, 0) + c
            for w, c in zip(words, wcounts):
                if len(w):
                    freq[w[-1]] = freq.get(w[-1], 0) + c
            self.hist = dict(Counter(counts))
        # Heap entries: (-count, k1, k2, pair, inexact). For "first", (k1, k2) is the
        # (word index, offset in base symbols) of the pair's earliest occurrence, or a lower
        # bound of it while inexact is 1; for "lowest-id" it is (pair, 0). Before any
        # merge every symbol but </w> (always last) is one base symbol long, so the offset of a
        # pair in its first word is its index there.
        self.heap = heap = []
        firsts: dict[int, dict[tuple[int, int], int]] = {}  # word index -> pair -> first index
        for p, c, key, ws in compress(zip(pairs, counts, keys, lists), wins):
            if not self.first:
                heap.append((-c, key, 0, key, 0))
                continue
            wi = ws[0]
            at = firsts.get(wi)
            if at is None:
                # Every pair's first index in the word at once, in C (the last write of a key
                # wins, so the pairs go in backwards): looking each pair up on its own would
                # scan a long word (a whole document, with "none") once per distinct pair.
                w = words[wi]
                at = firsts[wi] = dict(zip(reversed(list(pairwise(w))),
                                           range(len(w) - 2, -1, -1)))
            heap.append((-c, wi, at[p], key, 0))
        heapq.heapify(self.heap)
        # Every pair waiting in `pending` (count -> its heap entries) has a count below `bar`:
        # a top with at least `bar` beats them all.
        self.pending: defaultdict[int, list[tuple]] = defaultdict(list)
        self.bar = _bar(-heap[0][0]) if heap else 0

    def display(self, i: int) -> str:
        text = self.shown.get(i)
        if text is None:
            base = self.base
            text = self.shown[i] = (base.display(i) if i < len(base)
                                    else token_display(self.data[i], self.eow[i]))
        return text

    def any_pair(self) -> bool:
        """Whether some word still has two tokens (some pair is left, however rare)."""
        return bool(self.counts) or any(len(w) > 1 for w in self.words)

    def top_count(self) -> int:
        """The highest count of a pair left, on the heap or not (0 when none is counted)."""
        return max(self.counts.values(), default=0)

    def segments(self) -> list[tuple[int, ...]]:
        """Each word's token ids as training has them now."""
        return [tuple(map(ord, w)) for w in self.words]

    def add_token(self, pair: tuple[int, int]) -> None:
        a, b = pair
        self.length.append(self.length[a] + self.length[b])
        self.data.append(self.data[a] + self.data[b])
        self.eow.append(self.eow[b])

    def _first_occurrence(self, ab: str, hint: int) -> tuple[int, int]:
        """(word index, offset in base symbols) of the earliest occurrence of the pair ``ab``.

        ``hint`` is a word index no later than the earliest: a pair never enters a word after it
        is born, so the earliest word it was known in stays a lower bound. If that word still
        holds it, it is the earliest, and the pair's other words need not be looked at.
        """
        words = self.words
        wi = hint
        j = words[wi].find(ab)
        if j < 0:
            ws = self.where[ab]  # in word order
            for wi in _distinct(ws):
                j = words[wi].find(ab)
                if j >= 0:
                    break
            else:
                raise AssertionError(f"pair {_ids(ab)} has a count but no occurrence")
            k = ws.index(wi)
            if k:
                self.where[ab] = ws[k:]  # the words before are stale: the pair left them
        return wi, sum(map(self.length.__getitem__, map(ord, words[wi][:j])))

    def _settle_top(self) -> tuple[str, int] | None:
        """Fix the heap top until it is exact; return it (still on the heap) or None."""
        heap, counts, floor = self.heap, self.counts, self.floor
        while True:
            if not heap:
                if not self.pending:
                    return None
                self._lower_bar(max(self.pending))
                continue
            negc, k1, k2, pair, inexact = heap[0]
            c = counts.get(pair, 0)
            if c < floor:
                heapq.heappop(heap)
                continue
            if c < self.bar:
                if c != -negc:  # fell below the bar: it waits with the others of its count
                    heapq.heappop(heap)
                    self.pending[c].append((-c, k1, k2, pair, self.first))
                else:  # the whole heap is below the bar: a waiting pair may beat it, or tie
                    self._lower_bar(c)
                continue
            if c == -negc and not inexact:
                return pair, c  # exact: the common case
            runner_up = min(heap[1:3], default=None)
            if c != -negc:
                # The count fell since the push; the old first occurrence is still a lower
                # bound (occurrences only ever disappear), so keep it, marked inexact.
                entry = (-c, k1, k2, pair, self.first)
            elif inexact and runner_up is not None and -runner_up[0] >= c:
                # Its exact first occurrence only matters against a pair of the same count, and
                # the runner-up (whose count is an upper bound) may have it: look it up.
                entry = (-c, *self._first_occurrence(pair, k1), pair, 0)
            else:
                return pair, c
            if runner_up is None or entry <= runner_up:
                heap[0] = entry  # still on top: no need to sift it down
            else:
                heapq.heapreplace(heap, entry)

    def _lower_bar(self, count: int) -> None:
        """Bring the pairs waiting with about ``count`` or more into the heap."""
        self.bar = bar = _bar(count)
        heap, counts, floor, pending = self.heap, self.counts, self.floor, self.pending
        for c in [c for c in pending if c >= bar]:
            for entry in pending.pop(c):
                pair = entry[3]
                now = counts.get(pair, 0)
                if now == c:
                    heapq.heappush(heap, entry)
                elif now >= floor:  # fell meanwhile: as _settle_top would fix it
                    entry = (-now, entry[1], entry[2], pair, self.first)
                    if now >= bar:
                        heapq.heappush(heap, entry)
                    else:
                        pending[now].append(entry)

    def pop_best(self) -> tuple[tuple[int, int], int] | None:
        top = self._settle_top()
        if top is None:
            return None
        heapq.heappop(self.heap)
        return _ids(top[0]), top[1]

    def ties(self, count: int, limit: int) -> list[tuple[int, int]]:
        """Up to ``limit`` other pairs with ``count``, in tie order (left on the heap)."""
        found, held = [], []
        while len(found) < limit:
            top = self._settle_top()
            if top is None or top[1] != count:
                break
            held.append(heapq.heappop(self.heap))
            found.append(_ids(top[0]))
        for entry in held:
            heapq.heappush(self.heap, entry)
        return found

    def merge(self, pair: tuple[int, int], new: int) -> int:
        """Apply one merge everywhere; return the number of sites (weighted by word count)."""
        a, b = pair
        words, wcounts = self.words, self.wcounts
        # Every site turns its left neighbour's pair (p, a) into (p, new) and its right
        # neighbour's (b, nx) into (new, nx), with the same weight: so only the new pairs are
        # recorded, as neighbour -> the words they are born in (a word once per occurrence, in
        # word order; an int key, no tuple per site), and the lost pairs' counts are derived
        # from them at the end, in C.
        left: defaultdict[str, list[int]] = defaultdict(list)
        right: defaultdict[str, list[int]] = defaultdict(list)
        undone: list[int] = []  # "a b a b": a (new, a) undone by the next site; (b, a) is lost
        sites = 0
        # str.partition, str.find and str.replace take the leftmost occurrence and go on after
        # it, which is exactly where BPE merges a pair ("a a a" -> "aa a"). A word of one site
        # (most) is then one partition: its neighbours and its rewrite come from the two
        # sides, where count, find and replace were three calls.
        first_a, last_b, made = chr(a), chr(b), chr(new)
        ab = first_a + last_b
        for wi in _distinct(self.where.pop(ab)):
            w = words[wi]
            x, hit, y = w.partition(ab)
            if not hit:
                continue  # stale: the pair left this word in an earlier merge
            if ab not in y:  # the common case: one site
                if x:
                    left[x[-1]].append(wi)
                if y:
                    right[y[0]].append(wi)
                words[wi] = x + made + y
                if a == b:
                    sites += wcounts[wi]
                continue
            if a == b:  # overlapping runs: fewer sites than occurrences
                sites += wcounts[wi] * w.count(ab)
            j, end, after = len(x), len(w), -1  # `after`: the end of the site before
            while j >= 0:
                if j == after:
                    right[first_a].pop()  # the (new, a) the site before made is undone
                    undone.append(wi)
                    left[made].append(wi)
                elif j:
                    left[w[j - 1]].append(wi)
                after = j + 2
                if after < end:  # never `new`: the sites to the right are still to come
                    right[w[after]].append(wi)
                j = w.find(ab, after)
            words[wi] = w.replace(ab, made)
        counts, where, hist = self.counts, self.where, self.hist
        if a != b:
            sites = counts[ab]  # with no runs "a a a" to overlap, every occurrence is a site
        heap, first, floor, keep = self.heap, self.first, self.floor, self.keep
        bar, pending = self.bar, self.pending
        count_of = wcounts.__getitem__
        # (new pair, the old pair it replaced, the words it is born in)
        born = [(x + made, x + first_a, ws) for x, ws in left.items()]
        born += [(made + x, last_b + x, ws) for x, ws in right.items() if ws]
        if undone:
            born.append((None, last_b + first_a, undone))
        for q, old, ws in born:
            c = sum(map(count_of, ws))
            # (new, new) replaced an undone (new, a), which no count holds (the right
            # neighbours' new pairs come after the left ones'): nothing else was lost. A pair
            # not kept is too rare to matter.
            n = counts.get(old)
            if n is not None:
                n -= c
                if hist is not None:
                    _recount(hist, n + c, n)
                if n >= keep:
                    counts[old] = n
                else:
                    del counts[old]
                    where.pop(old, None)
            if q is None or c < keep:
                continue
            counts[q] = c
            if hist is not None:
                _recount(hist, 0, c)
            if c >= floor:
                # Only a pair that can still win needs to know its words.
                where[q] = ws = array('I', ws)
                # A new pair occurs only in words this merge touched, so its earliest word is
                # the first of them; its offset there is looked up only if it reaches the top.
                entry = (-c, ws[0], 0, q, 1) if first else (-c, q, 0, q, 0)
                if c >= bar:
                    heapq.heappush(heap, entry)
                else:
                    pending[c].append(entry)
        # Every occurrence is gone (a run "a a a" counts the pair twice but merges once, so
        # what is left of its count is dropped, not decremented).
        rest = counts.pop(ab, 0)
        if hist is not None and rest:
            _recount(hist, rest, 0)
        self.total -= sites
        freq = self.freq
        if freq is not None:
            freq[new] = sites
            freq[a] -= sites
            freq[b] -= sites
        return sites


def _bar(count: int) -> int:
    """The bar below which pairs wait outside the heap, once its top has ``count``: an eighth
    below, so that it comes down about a hundred times in a run (further below, more pairs come
    in that lose their count before they could win; closer, it comes down more often, each
    time for fewer pairs).

    >>> _bar(1000), _bar(7)
    (875, 7)
    """
    return count - count // 8


def _distinct(ws: array) -> Iterator[int]:
    """The word indices of ``ws`` without repeats, which are next to each other.

    >>> list(_distinct(array('I', [3, 3, 5, 8, 8, 8])))
    [3, 5, 8]
    """
    return compress(ws, map(operator.ne, ws, chain((-1,), ws)))


def _ids(pair: str) -> tuple[int, int]:
    """The token ids of a pair held as a str (``"ab"`` -> ``(97, 98)``)."""
    return ord(pair[0]), ord(pair[1])


def _symbols(word_counts: dict[str, int], base: Base) -> list[bytes] | list[list[int]]:
    """Each word's base ids: its UTF-8 bytes when those are the ids (a byte base in byte order,
    no ``</w>``), two C calls a word where a list of ints takes a Python call and a loop.

    >>> from bpe_core.alphabet import byte_base
    >>> _symbols({"hé": 1}, byte_base()), _symbols({"hé": 1}, byte_base(end_of_word=True))
    ([b'h\\xc3\\xa9'], [[104, 195, 169, 256]])
    """
    if base.unit == "byte" and not base.end_of_word and base.byte_ids is None:
        return [w.encode("utf-8") for w in word_counts]
    return [base.symbols(w) for w in word_counts]


def _recount(hist: dict[int, int], old: int, now: int) -> None:
    """One pair's count went from ``old`` to ``now`` (0 for none): keep the histogram."""
    if old:
        hist[old] -= 1
    if now:
        hist[now] = hist.get(now, 0) + 1
