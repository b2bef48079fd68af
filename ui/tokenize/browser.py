"""The browser-side behaviours of the Tokenize page, in two small Streamlit components:

- *live typing*: Streamlit's text area sends its text only on Ctrl+Enter or when it loses focus;
  this sends it whenever typing pauses, so the colouring follows the keyboard as in Tiktokenizer;
- *click to pick*: clicking a token box (inside an element of class ``bpe-pick``) picks that token,
  by the box's ``data-i`` position, for the merge tree, and frames it at once; so do Enter and
  Space on a box reached with Tab, and the arrow keys (Home, End) move along the boxes, as in a
  toolbar (one box in the Tab order at a time); the picked box keeps the focus when the page
  draws it again;
- *text and tokens linked*: hovering a box selects the characters it covers in the text area
  (by the box's ``data-s`` and ``data-e``, UTF-16 offsets as a text area counts), and the
  selection is put back as it was when the pointer leaves; selecting characters in the text
  area marks the boxes that cover them (class ``hl``) and scrolls the first into view;
- *copy link*: a button that copies the page's address, which holds the whole view.

The scripts read only the page's own elements and never insert any HTML from the text.
"""

from __future__ import annotations

import streamlit as st

#: Pause in typing, in milliseconds, after which the text is sent.
TYPING_PAUSE_MS = 250

PICK_CLASS = "bpe-pick"

_JS = """
export default function(component) {
  const { setTriggerValue, data } = component;
  const area = () => document.querySelector('.st-key-' + data.text_key + ' textarea');
  const boxAt = (node) => node && node.closest && node.closest('.%(pick)s [data-i]');
  const pick = (box) => {
    document.querySelectorAll('.%(pick)s .on').forEach((b) => b.classList.remove('on'));
    box.classList.add('on');  // framed now; the page's answer frames it too
    setTriggerValue('picked', Number(box.dataset.i));
  };
  const onClick = (event) => {
    const box = boxAt(event.target);
    if (box) pick(box);
  };
  // The page draws the boxes again after a pick: the focus, lost with the old box, goes back
  // to the picked one (unless the user has moved on, to the text area say).
  let refocus = null;
  const keepFocus = new MutationObserver(() => {
    if (!refocus) return;
    const now = document.activeElement;
    if (now && now !== document.body && now !== refocus.old) { refocus = null; return; }
    const box = document.querySelector('.%(pick)s [data-i="' + refocus.i + '"]');
    if (box && !refocus.old.isConnected) { box.focus({preventScroll: true}); refocus = null; }
  });
  keepFocus.observe(document.body, {childList: true, subtree: true});
  const onBoxKey = (event) => {
    const box = boxAt(event.target);
    if (!box || box !== event.target) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();  // (Space would scroll the page)
      refocus = {i: box.dataset.i, old: box};
      pick(box);
      return;
    }
    const all = [...box.closest('.%(pick)s').querySelectorAll('[data-i]')];
    const at = all.indexOf(box);
    const to = {ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: all.length - 1}[event.key];
    if (to === undefined || !all[to]) return;
    event.preventDefault();
    box.tabIndex = -1;
    all[to].tabIndex = 0;
    all[to].focus();
  };
  let timer = null;
  const onInput = (event) => {
    const text = event.target;
    if (!(text instanceof HTMLTextAreaElement) || !text.closest('.st-key-' + data.text_key)) return;
    // While an input method composes a character, wait for it (compositionend comes last).
    if (event.type === 'input' && event.isComposing) return;
    clearTimeout(timer);
    // Streamlit commits a text area on Ctrl+Enter; the same key press, sent after a pause.
    timer = setTimeout(() => text.dispatchEvent(new KeyboardEvent('keydown', {
      key: 'Enter', code: 'Enter', keyCode: 13, which: 13, ctrlKey: true,
      bubbles: true, cancelable: true})), data.pause_ms);
  };
  // Hovering a box shows its characters as the text area's selection; what the user had
  // selected (and whether the area had the focus) is put back when the pointer leaves.
  let saved = null;
  const restore = (keepFocus) => {
    const text = area();
    if (saved && text) {
      text.setSelectionRange(saved.start, saved.end, saved.dir);
      if (!saved.focused && !keepFocus) text.blur();
    }
    saved = null;
  };
  const onOver = (event) => {
    const box = boxAt(event.target), text = area();
    if (!box || !text || !box.dataset.s) return;
    if (!saved) saved = {start: text.selectionStart, end: text.selectionEnd,
                         dir: text.selectionDirection, focused: document.activeElement === text};
    text.focus({preventScroll: true});
    text.setSelectionRange(Number(box.dataset.s), Number(box.dataset.e));
  };
  const onOut = (event) => {
    if (boxAt(event.target) && !boxAt(event.relatedTarget)) restore(false);
  };
  // A key pressed while a hover selection shows must not replace the hovered characters.
  const onKey = (event) => { if (saved && event.target === area()) restore(true); };
  // Selecting characters marks the boxes that cover them.
  const mark = () => {
    const text = area();
    if (!text || document.activeElement !== text) return;
    const start = text.selectionStart, end = text.selectionEnd;
    let first = null;
    document.querySelectorAll('.%(pick)s [data-s]').forEach((b) => {
      const on = start < end && Number(b.dataset.s) < end && Number(b.dataset.e) > start;
      b.classList.toggle('hl', on);
      first = first || (on ? b : null);
    });
    const scroller = first && !saved && first.closest('.bpe-scroll');
    if (scroller) {
      const box = first.getBoundingClientRect(), view = scroller.getBoundingClientRect();
      if (box.top < view.top || box.bottom > view.bottom)
        scroller.scrollTop += box.top - view.top - view.height / 3;
    }
  };
  const listeners = [['click', onClick], ['input', onInput, true],
                     ['compositionend', onInput, true], ['mouseover', onOver],
                     ['mouseout', onOut], ['keydown', onKey, true], ['select', mark, true],
                     ['selectionchange', mark, true], ['keyup', mark, true],
                     ['mouseup', mark, true], ['keydown', onBoxKey]];
  listeners.forEach(([name, handler, capture]) =>
    document.addEventListener(name, handler, !!capture));
  // The boxes are drawn before this script runs, and a click until then does nothing: say
  // when they answer (the browser tests wait for it).
  document.body.dataset.tokenBoxes = 'live';
  return () => {
    delete document.body.dataset.tokenBoxes;
    clearTimeout(timer);
    keepFocus.disconnect();
    listeners.forEach(([name, handler, capture]) =>
      document.removeEventListener(name, handler, !!capture));
  };
}
""" % {"pick": PICK_CLASS}

_helper = st.components.v2.component("bpe_tokenize_helper", js=_JS)

_COPY_JS = """
export default function(component) {
  const button = component.parentElement.querySelector('button');
  const label = button.textContent;
  let timer = null;
  const copy = async () => {
    const url = window.location.href;  // the address Streamlit keeps up to date with the view
    let done = false;
    try {
      await navigator.clipboard.writeText(url);
      done = true;
    } catch (error) {  // no clipboard API (a page served over plain http): the old way
      const scratch = document.createElement('textarea');
      scratch.value = url;
      document.body.appendChild(scratch);
      scratch.select();
      done = document.execCommand('copy');
      scratch.remove();
    }
    button.textContent = done ? 'Link copied' : 'Copy it from the address bar';
    clearTimeout(timer);
    timer = setTimeout(() => { button.textContent = label; }, 2000);
  };
  button.addEventListener('click', copy);
  return () => { clearTimeout(timer); button.removeEventListener('click', copy); };
}
"""

_COPY_CSS = """
button { font: inherit; font-size: 0.9rem; padding: 0.3rem 0.8rem; cursor: pointer;
         border: 1px solid rgba(49, 51, 63, 0.25); border-radius: 0.5rem; background: white;
         color: rgb(49, 51, 63); }
button:hover { border-color: #ff4b4b; color: #ff4b4b; }
"""

_copy_link = st.components.v2.component("bpe_copy_link", html="<button>Copy link</button>",
                                        css=_COPY_CSS, js=_COPY_JS)


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


def copy_link_button(*, key: str) -> None:
    """A button that copies the page's full address (which holds the text and the view)."""
    _copy_link(key=key)
