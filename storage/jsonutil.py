"""JSON helpers: validation, a canonical form, state hashes and a readable structural diff.

States are compared *semantically*: two JSON texts are equal when they parse to the same value,
whatever the key order or whitespace. The canonical form (sorted keys, no whitespace, ASCII)
makes that comparison, and the per-entry state hash, cheap and deterministic.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from storage.errors import InvalidData

__all__ = ["canonical_json", "json_diff", "parse_json", "semantic_equal", "state_hash"]


def parse_json(text: str, *, what: str = "value") -> Any:
    """Parse ``text`` as JSON, raising :class:`InvalidData` (not ``ValueError``) if it is not."""
    if not isinstance(text, str):
        raise InvalidData(f"{what} must be a JSON string, not {type(text).__name__}")
    try:
        return json.loads(text)
    except ValueError as exc:
        raise InvalidData(f"{what} is not valid JSON: {exc}") from exc


def canonical_json(value: Any) -> str:
    """The canonical text of a parsed JSON value: sorted keys, compact, ASCII only."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def state_hash(value: Any) -> str:
    """SHA-256 (hex) of the canonical form of a parsed JSON value."""
    return hashlib.sha256(canonical_json(value).encode("ascii")).hexdigest()


def semantic_equal(a: str, b: str) -> bool:
    """True when two JSON texts denote the same value (key order and spacing do not matter)."""
    return canonical_json(json.loads(a)) == canonical_json(json.loads(b))


def _short(value: Any, limit: int = 60) -> str:
    text = canonical_json(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def json_diff(
    expected: Any,
    actual: Any,
    *,
    limit: int = 10,
    labels: tuple[str, str] = ("expected", "got"),
) -> list[str]:
    """Describe where two parsed JSON values differ, as ``path: expected X, got Y`` lines
    (``labels`` renames the two sides, e.g. ``("stored", "replayed")``).

    At most ``limit`` differences are reported (a final line says how many more were cut).
    Equality follows the canonical form, so ``1`` and ``true`` differ, as do ``1`` and ``1.0``.
    """
    out: list[str] = []
    total = _diff(expected, actual, "$", out, limit, labels)
    if total > len(out):
        out.append(f"... and {total - len(out)} more difference(s)")
    return out


def _diff(
    expected: Any, actual: Any, path: str, out: list[str], limit: int, labels: tuple[str, str]
) -> int:
    """Append up to ``limit`` lines to ``out``; return the total number of differences."""
    left, right = labels
    pairs: list[tuple[str, bool, Any, bool, Any]] = []  # path, in expected, value, in actual...
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in sorted(set(expected) | set(actual)):
            sub = f"{path}.{key}" if key.isidentifier() else f"{path}[{json.dumps(key)}]"
            pairs.append((sub, key in expected, expected.get(key), key in actual, actual.get(key)))
    elif isinstance(expected, list) and isinstance(actual, list):
        for index in range(max(len(expected), len(actual))):
            has_e, has_a = index < len(expected), index < len(actual)
            pairs.append(
                (
                    f"{path}[{index}]",
                    has_e,
                    expected[index] if has_e else None,
                    has_a,
                    actual[index] if has_a else None,
                )
            )
    else:
        if canonical_json(expected) == canonical_json(actual):
            return 0
        kinds = ""
        if _kind(expected) != _kind(actual):
            kinds = f" ({_kind(expected)} vs {_kind(actual)})"
        line = f"{path}: {left} {_short(expected)}, {right} {_short(actual)}{kinds}"
        return _note(out, limit, line)
    count = 0
    for sub, has_e, value_e, has_a, value_a in pairs:
        if not has_a:
            count += _note(out, limit, f"{sub}: missing ({left} {_short(value_e)})")
        elif not has_e:
            count += _note(out, limit, f"{sub}: unexpected ({right} {_short(value_a)})")
        else:
            count += _diff(value_e, value_a, sub, out, limit, labels)
    return count


def _note(out: list[str], limit: int, line: str) -> int:
    if len(out) < limit:
        out.append(line)
    return 1
