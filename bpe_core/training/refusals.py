"""Pairs training never merges, and why: the trainer's rule, which its step tables show too.

With byte fallback no merge makes a token spelled as a byte's own fallback token (a merged
"<0x41>" would decode as "A"; a token's bytes leave out ``</w>``, since a text's last token is
decoded without it); with an ``allow`` rule (SuperBPE's stage 2) no merge makes a token the rule
refuses. The reasons are the ``stop_reason`` of a run that only such pairs stop.

>>> why_refused(b"<0x41>", byte_fallback=True, allow=None)
'byte_names'
>>> why_refused(b"of the", byte_fallback=False, allow=lambda data: b" " not in data)
'not_allowed'
>>> why_refused(b"<0x41", byte_fallback=True, allow=None) is None
True
"""

from __future__ import annotations

from typing import Callable

from ..decoders import reads_as_byte

BYTE_NAMES, NOT_ALLOWED = "byte_names", "not_allowed"


def why_refused(data: bytes, *, byte_fallback: bool,
                allow: Callable[[bytes], bool] | None) -> str | None:
    """Why a token of these bytes is never made (``BYTE_NAMES`` or ``NOT_ALLOWED``), or None."""
    if byte_fallback and reads_as_byte(data):
        return BYTE_NAMES
    if allow is not None and not allow(data):
        return NOT_ALLOWED
    return None
