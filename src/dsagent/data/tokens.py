"""Count prompt tokens, so profiles can be kept inside a budget.

The embedded model reads ~50 prompt tokens/s, so the budget matters more than the exact count.
No tokenizer file ships offline, so the default is an estimate shaped like Qwen2/GPT-4 BPE: the
same pre-tokenizer split (words with their leading space, each digit on its own, runs of
punctuation), then a per-piece cost. It lands within ~10-15 % of the real count on English prose
and profile text. Plug the real tokenizer in with :func:`set_token_counter` once a model is loaded.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable

# Qwen2's pre-tokenizer, written with `re` classes: [^\W\d_] is "a letter".
_PIECES = re.compile(
    r"""'(?:s|t|re|ve|m|ll|d)(?![^\W\d_])"""  # contractions
    r"""|[^\r\n\w]?[^\W\d_]+"""  # a word, with one leading space or symbol
    r"""|_+[^\W\d_]*"""  # snake_case tails: "_date"
    r"""|\d"""  # Qwen splits every digit
    r"""| ?[^\s\w]+[\r\n]*"""  # a run of punctuation
    r"""|\s*[\r\n]+|\s+""",
    re.UNICODE,
)

_counter: Callable[[str], int] | None = None


def set_token_counter(counter: Callable[[str], int] | None) -> None:
    """Use ``counter`` (e.g. the loaded model's tokenizer) instead of the estimate; None resets."""
    global _counter
    _counter = counter


def count_tokens(text: str) -> int:
    """Number of prompt tokens in ``text``: the plugged-in tokenizer's, or an estimate."""
    if _counter is not None:
        return int(_counter(text))
    return estimate_tokens(text)


def estimate_tokens(text: str) -> int:
    total = 0
    for piece in _PIECES.findall(text):
        total += _piece_cost(piece)
    return total


def _piece_cost(piece: str) -> int:
    first = piece[0]
    if first.isdigit() or first.isspace() and piece.isspace():
        return 1
    if not piece.isascii():
        # Non-Latin scripts and accented words fragment: roughly one token per non-ASCII char.
        ascii_part = sum(1 for c in piece if c.isascii())
        return sum(1 for c in piece if not c.isascii()) + math.ceil(ascii_part / 4)
    letters = sum(1 for c in piece if c.isalpha())
    if letters == 0:
        # Punctuation runs merge in pairs ("),", "':"), a leading space rides along.
        return max(1, math.ceil(len(piece.strip(" ")) / 2))
    extra = 1 if (len(piece) - letters) > 1 else 0
    # Common words up to ~7 letters are one token; longer ones split every ~5 letters.
    return (1 if letters <= 7 else math.ceil(letters / 5)) + extra


def within_budget(lines: Iterable[str], budget: int, used: int = 0) -> tuple[list[str], int, int]:
    """The lines, in order, that fit ``budget`` tokens after ``used`` (a line that does not fit is
    skipped, a shorter one after it may still fit), how many were left out, and the tokens used
    in all."""
    kept, left = [], 0
    for line in lines:
        cost = count_tokens(line) + 1
        if used + cost > budget:
            left += 1
            continue
        kept.append(line)
        used += cost
    return kept, left, used
