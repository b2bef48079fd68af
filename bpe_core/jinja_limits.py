"""A Jinja sandbox with a time limit and a size limit, for templates that come from files.

Jinja's sandbox keeps a template away from Python's internals, not from the thread that renders
it: ``{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}`` runs
for hours and ``{{ 'x' * 10**10 }}`` asks for 10 GB. :class:`BoundedEnvironment` renders within
``seconds`` and makes no text (or list) longer than ``max_chars``:

* the clock is read at every step a template can repeat: each turn of a loop (a ``for``'s
  iterable is wrapped as it is compiled), each call (macros, methods, recursion), each filter
  and each intercepted operator, and each piece of output;
* what multiplies a size is checked before it is made (``*``, ``**``, ``%`` formats, a
  method's or filter's width, ``join``, ``replace``), and so is the text a list or dict
  makes when it is written (a thousand references to one long text are a small list and a
  long text); what adds is checked after (``+``, ``~``, a filter's or call's result, a
  captured block), so that no value grows past the limit by more than the pieces of one step.

>>> env = BoundedEnvironment(seconds=1.0, max_chars=100)
>>> env.render("{{ 'ab' * 3 }}", {})
'ababab'
>>> try:
...     env.render("{{ 'ab' * 60 }}", {})
... except LimitError as exc:
...     print(exc)
the chat template would make a text or list of more than 100 characters or items
"""

from __future__ import annotations

import functools
import threading
import time
from typing import Any, Iterable, Iterator, Mapping

import regex
from jinja2 import nodes, pass_context
from jinja2.compiler import CodeGenerator
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.visitor import NodeTransformer

#: The largest number a template may compute, in bits: far more than any counter or date, far
#: less than ``10**10**8``, whose digits take minutes.
MAX_BITS = 100_000
# Filter names no template can write (they hold a space), put in by _Guards.
_EACH, _SIZED, _WRITTEN = "bounded each", "bounded size", "bounded output"
_WIDTH = regex.compile(r"\d+")  # the widths and precisions of a % or {} format, among others
#: Filters that may put a text of their arguments' at every line (indent) or every character
#: (wordwrap's wrapstring, urlize's attributes at most at each one).
_INSERTING = frozenset({"indent", "wordwrap", "urlize"})
#: Filters that keep their value's items as they are, or count them, rather than write it as
#: text (the others' values are measured as the text they make).
_KEEPING = frozenset({"abs", "attr", "batch", "count", "d", "default", "dictsort", "first",
                      "float", "groupby", "int", "items", "join", "last", "length", "list", "map",
                      "max", "min", "random", "reject", "rejectattr", "reverse", "round",
                      "select", "selectattr", "slice", "sort", "sum", "unique"})


class LimitError(Exception):
    """A template stopped for time or size; the message is one sentence for the user."""


class _Guards(NodeTransformer):
    """Each loop's iterable passes through the ``_EACH`` filter, which reads the clock at every
    item; each ``~`` concatenation's result through ``_SIZED``, which measures it; each
    ``{{ expression }}`` through ``_WRITTEN``, which counts what is written, in the output or in
    a captured block (whose pieces are kept in a list no hook sees until it is joined)."""

    def visit_Output(self, node: nodes.Output) -> nodes.Node:
        self.generic_visit(node)
        node.nodes = [n if isinstance(n, nodes.TemplateData) else
                      nodes.Filter(n, _WRITTEN, [], [], None, None, lineno=n.lineno)
                      for n in node.nodes]
        return node

    def visit_For(self, node: nodes.For) -> nodes.Node:
        self.generic_visit(node)
        node.iter = nodes.Filter(node.iter, _EACH, [], [], None, None, lineno=node.lineno)
        return node

    def visit_Concat(self, node: nodes.Concat) -> nodes.Node:
        self.generic_visit(node)
        node.nodes = [nodes.Filter(n, _SIZED, [], [], None, None, lineno=n.lineno)
                      for n in node.nodes]  # (made text: a list is measured as its text)
        return nodes.Filter(node, _SIZED, [], [], None, None, lineno=node.lineno)


class _GuardedCodeGenerator(CodeGenerator):
    def visit_Template(self, node: nodes.Template, frame=None) -> None:
        _Guards().visit(node)
        super().visit_Template(node, frame)


class BoundedEnvironment(ImmutableSandboxedEnvironment):
    """An immutable sandbox in which a render stops with :class:`LimitError` after ``seconds``,
    or before any text or list outgrows ``max_chars``; the clock starts in :meth:`render`."""

    code_generator_class = _GuardedCodeGenerator
    intercepted_binops = frozenset({"*", "**", "+", "%"})

    def __init__(self, *, seconds: float, max_chars: int, filters: Mapping[str, Any] | None = None,
                 **options: Any) -> None:
        """``filters`` are added to Jinja's own, and bounded as they are."""
        super().__init__(**options)
        self.seconds, self.max_chars = seconds, max_chars
        # Sessions render in threads of their own, all with this environment: each thread's
        # render keeps its deadline and what it wrote here. Templates are compiled once.
        self._run = threading.local()
        self._compiled = functools.lru_cache(maxsize=64)(self.from_string)
        self.filters = {name: self._bounded_filter(name, f)
                        for name, f in {**self.filters, **(filters or {})}.items()}
        self.filters.update({_EACH: self._each, _SIZED: self._sized, _WRITTEN: self._written})
        del self.globals["lipsum"]  # (n paragraphs of filler text at once: no template's need)

    # -- the two limits ---------------------------------------------------------------------

    def check_time(self) -> None:
        if time.monotonic() > self._run.deadline:
            raise LimitError(f"the chat template took longer than {self.seconds:g} s to render, "
                             "so it was stopped (a loop that runs too long?)")

    def check_size(self, size: int) -> None:
        if size > self.max_chars:
            raise LimitError(f"the chat template would make a text or list of more than "
                             f"{self.max_chars:,} characters or items")

    def _measured(self, value: Any) -> Any:
        if isinstance(value, (str, list, tuple)):
            self.check_size(len(value))
        return value

    # -- rendering --------------------------------------------------------------------------

    def render(self, source: str, variables: Mapping[str, Any]) -> str:
        """``source`` rendered with ``variables``, piece by piece, within both limits."""
        self._run.deadline = time.monotonic() + self.seconds  # compiling counts too
        self._run.written = 0
        out = []
        for piece in self._compiled(source).generate(**variables):
            self.check_time()  # (the pieces are counted as they are written, in _written)
            out.append(piece)
        return "".join(out)

    def concat(self, pieces: Iterable[str]) -> str:  # a captured block: macro, set, filter
        pieces = list(pieces)
        self.check_size(sum(map(len, pieces)))
        return "".join(pieces)

    # -- the sandbox's hooks ----------------------------------------------------------------

    def call(self, context, obj, /, *args: Any, **kwargs: Any) -> Any:
        self.check_time()
        bound = getattr(obj, "__wrapped__", obj)  # (the sandbox wraps str.format)
        text, method = getattr(bound, "__self__", None), getattr(bound, "__name__", "")
        if isinstance(text, str):  # a string's method: widths, join and replace multiply
            self._check_numbers(text if method.startswith("format") else "",
                                [*args, *kwargs.values()])
            if method.startswith("format"):
                self._text_size([args, kwargs])
            if method == "join" and args:
                args = (self._check_total(args[0], sep=text), *args[1:])
            elif method == "replace" and len(args) >= 2:
                self._check_replace(text, *args[:2])
            elif method == "expandtabs":  # each tab may become that many spaces
                size = next((a for a in [*args, *kwargs.values()] if type(a) is int), 8)
                self.check_size(len(text) + text.count("\t") * max(size, 0))
            elif method == "translate" and args:  # each character may become the longest value
                self.check_size(len(text) * self._longest_value(args[0]))
        return self._measured(super().call(context, obj, *args, **kwargs))

    def call_binop(self, context, operator: str, left: Any, right: Any) -> Any:
        self.check_time()
        sized = (str, list, tuple)
        if operator == "*" and isinstance(left, sized) and type(right) is int:
            self.check_size(len(left) * right)
        elif operator == "*" and isinstance(right, sized) and type(left) is int:
            self.check_size(len(right) * left)
        elif operator == "*" and type(left) is int and type(right) is int:
            self._check_bits(left.bit_length() + right.bit_length())
        elif operator == "**" and type(left) is int and type(right) is int and abs(left) > 1:
            self._check_bits(left.bit_length() * max(right, 0))
        elif operator == "%" and isinstance(left, str):
            self._check_numbers(left, right if isinstance(right, tuple) else [right])
            self._text_size(right)
        return self._measured(super().call_binop(context, operator, left, right))

    # -- what multiplies, checked before it is made -----------------------------------------

    def _check_numbers(self, fmt: str, args: Iterable[Any]) -> None:
        """Refuse a width or count over the limit: in a format string, or an int argument."""
        for number in [*map(int, _WIDTH.findall(fmt)), *(a for a in args if type(a) is int)]:
            self.check_size(number)

    def _check_bits(self, bits: int) -> None:
        if bits > MAX_BITS:
            raise LimitError(f"the chat template would compute a number of more than "
                             f"{MAX_BITS:,} bits")

    def _check_total(self, items: Iterable[Any], *, sep: str = "", text: bool = True) -> list:
        """``items`` as a list, once the text (or list) they join into is measured as it is
        counted: ``[s] * 1000`` joins to a thousand copies of ``s``."""
        items, total = list(items), 0
        for k, item in enumerate(items):
            if text:
                total += self._text_size(item)
            elif isinstance(item, (str, list, tuple)):
                total += len(item)
            self.check_size(total + len(sep) * k)
        return items

    def _text_size(self, value: Any) -> int:
        """About ``len(str(value))`` (a container's brackets and quotes counted roughly),
        found without making the text and refused as soon as it passes the limit: a list of a
        thousand references to one long text is small, its text is not."""
        if isinstance(value, str):
            self.check_size(len(value))
            return len(value)
        total, waiting = 0, [value]
        while waiting:
            item = waiting.pop()
            if isinstance(item, str):
                total += len(item) + 2
            elif isinstance(item, (list, tuple, set, frozenset)):
                total += 2 + 2 * len(item)
                waiting.extend(item)
            elif isinstance(item, dict):
                total += 2 + 4 * len(item)
                waiting.extend([*item.keys(), *item.values()])
            else:  # a number, None, an object: its text is short
                total += 8
            self.check_size(total)
        return total

    @staticmethod
    def _longest_value(table: Any) -> int:
        """The longest text ``str.translate`` may put for one character with ``table`` (a
        mapping or a sequence; a character for anything else)."""
        values = table.values() if isinstance(table, Mapping) else (
            table if isinstance(table, (list, tuple, str)) else ())
        return max((len(v) for v in values if isinstance(v, str)), default=1)

    def _check_replace(self, text: Any, old: Any, new: Any) -> None:
        if isinstance(text, str) and isinstance(old, str) and isinstance(new, str):
            places = text.count(old) if old else len(text) + 1
            self.check_size(len(text) + places * (len(new) - len(old)))

    # -- filters ----------------------------------------------------------------------------

    def _bounded_filter(self, name: str, f):
        """Filter ``f`` within the limits: what it multiplies by checked before (widths and
        counts; the text it formats, joins, replaces in, indents or sums), its result after."""
        first = 1 if hasattr(f, "jinja_pass_arg") else 0  # (a context comes before the value)

        @functools.wraps(f)  # (keeps f's pass_context mark, which is in its __dict__)
        def bounded(*args: Any, **kwargs: Any) -> Any:
            self.check_time()
            value, rest = args[first], [*args[first + 1:], *kwargs.values()]
            self._check_numbers(value if name == "format" and isinstance(value, str) else "",
                                rest)
            if name not in _KEEPING:  # it makes a text of its value (string, tojson, upper...)
                self._text_size(rest if name == "format" else value)
            if name == "join" and "attribute" not in kwargs:
                sep = next((a for a in rest if isinstance(a, str)), "")
                args = (*args[:first], self._check_total(value, sep=sep), *args[first + 1:])
            elif name == "sum":
                args = (*args[:first], self._check_total(value, text=False), *args[first + 1:])
            elif name == "replace" and len(rest) >= 2:
                self._check_replace(value, *rest[:2])
            elif name in _INSERTING and isinstance(value, str):
                places = value.count("\n") + 1 if name == "indent" else len(value) + 1
                for extra in (a for a in rest if isinstance(a, str)):
                    self.check_size(len(value) + places * len(extra))
            return self._measured(f(*args, **kwargs))

        return bounded

    @pass_context
    def _each(self, context, iterable: Any) -> Iterator[Any]:
        for item in iterable:
            self.check_time()
            yield item

    @pass_context
    def _sized(self, context, value: Any) -> Any:
        self._text_size(value)
        return value

    @pass_context
    def _written(self, context, value: Any) -> Any:
        self.check_time()
        self._run.written += self._text_size(value)
        if self._run.written > self.max_chars:
            raise LimitError(f"the chat template produced more than {self.max_chars:,} "
                             "characters, more than a prompt may have here")
        return value
