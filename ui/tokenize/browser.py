"""Two browser-side behaviours of the Tokenize page, in one invisible Streamlit component:

- *live typing*: Streamlit's text area sends its text only on Ctrl+Enter or when it loses focus;
  this sends it whenever typing pauses, so the colouring follows the keyboard as in Tiktokenizer;
- *click to pick*: clicking a token box (inside an element of class ``bpe-pick``) picks that token,
  by the box's ``data-i`` position, for the merge tree.

The script reads only the page's own elements and never inserts any HTML.
"""

from __future__ import annotations

import streamlit as st

#: Pause in typing, in milliseconds, after which the text is sent.
TYPING_PAUSE_MS = 250

PICK_CLASS = "bpe-pick"

_JS = """
export default function(component) {
  const { setTriggerValue, data } = component;
  const onClick = (event) => {
    const box = event.target.closest && event.target.closest('.%(pick)s [data-i]');
    if (box) setTriggerValue('picked', Number(box.dataset.i));
  };
  let timer = null;
  const onInput = (event) => {
    const area = event.target;
    if (!(area instanceof HTMLTextAreaElement) || !area.closest('.st-key-' + data.text_key)) return;
    // While an input method composes a character, wait for it (compositionend comes last).
    if (event.type === 'input' && event.isComposing) return;
    clearTimeout(timer);
    // Streamlit commits a text area on Ctrl+Enter; the same key press, sent after a pause.
    timer = setTimeout(() => area.dispatchEvent(new KeyboardEvent('keydown', {
      key: 'Enter', code: 'Enter', keyCode: 13, which: 13, ctrlKey: true,
      bubbles: true, cancelable: true})), data.pause_ms);
  };
  document.addEventListener('click', onClick);
  document.addEventListener('input', onInput, true);
  document.addEventListener('compositionend', onInput, true);
  return () => {
    clearTimeout(timer);
    document.removeEventListener('click', onClick);
    document.removeEventListener('input', onInput, true);
    document.removeEventListener('compositionend', onInput, true);
  };
}
""" % {"pick": PICK_CLASS}

_helper = st.components.v2.component("bpe_tokenize_helper", js=_JS)


def attach(*, text_key: str, key: str, on_pick) -> None:
    """Mount the helper for the text area whose widget key is ``text_key``.

    ``on_pick(position)`` is called (as a widget callback, before the page reruns) when a token
    box is clicked.
    """

    def picked() -> None:
        value = st.session_state[key].get("picked")
        if value is not None:
            on_pick(int(value))

    _helper(key=key, data={"text_key": text_key, "pause_ms": TYPING_PAUSE_MS},
            on_picked_change=picked)
