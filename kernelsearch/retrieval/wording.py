"""The same compile error as nvcc and as g++ word it, so a section written with one compiler's
message still matches the other's.

nvcc (EDG front end) and g++ describe most C++ errors in different words: nvcc's
`identifier "x" is undefined` is g++'s `'x' was not declared in this scope`. A message that
matches one pattern below gets the other compiler's wording added to the query, so a section's
Symptoms line need not quote both. Python messages that name an operator only by its symbol
(`for **:`) get its name in words, since the search sees letters and digits only.
"""

from __future__ import annotations

import re

# (one compiler's message pattern, the other compiler's words for it)
_EQUIVALENTS: tuple[tuple[str, str], ...] = (
    (r'identifier "[^"]*" is undefined', "was not declared in this scope"),
    (r"was not declared in this scope", "identifier is undefined"),
    (r"no instance of (?:overloaded function|function template)", "no matching function for call"),
    (r"no matching function for call", "no instance of overloaded function"),
    (r"expression must have class type", "request for member which is of non-class type"),
    (r"which is of non-class type", "expression must have class type"),
    (r'no operator "[^"]*" matches these operands', "no match for operator"),
    (r"no match for .?operator", "no operator matches these operands"),
    (r"more than one instance of overloaded function", "call of overloaded is ambiguous"),
    (r"call of overloaded .* is ambiguous", "more than one instance of overloaded function"),
    (r"too (?:many|few) arguments in function call", "arguments to function"),
    (r"too (?:many|few) arguments to function", "arguments in function call"),
    (r"argument of type .* is incompatible with parameter", "cannot convert invalid conversion"),
    (r"(?:cannot|could not) convert|invalid conversion", "incompatible with parameter of type"),
    (r"expression must be a modifiable lvalue", "assignment of read-only location"),
    (r"assignment of read-only", "expression must be a modifiable lvalue"),
    (r"expression must have a constant value", "not a constant expression"),
    (r"is not a constant expression|not usable in a constant", "must have a constant value"),
    (r'namespace "[^"]*" has no member', "is not a member of"),
    (r"is not a member of", "namespace has no member"),
    (r"expression must have integral or unscoped enum type", "invalid types for array subscript"),
    (r"expression must have pointer-to-object type", "invalid types for array subscript"),
    # g++ says "invalid types" both for a float index and for subscripting a non-pointer
    (r"invalid types .[^'’]*\[(?:float|double)\]. for array subscript", "integral enum type"),
    (
        r"invalid types .[^'’*\[]*\[[^'’]*\]. for array subscript",
        "must have pointer-to-object type",
    ),
)
# Messages that name an operator or a punctuation mark only by its symbol, which the search
# cannot see (it keeps letters and digits): the symbol in words.
_SYMBOL_NAMES: tuple[tuple[str, str], ...] = (
    (r"for \*\*:|\*\* or pow\(\)", "powers operator"),
    (r"for @:|'MatMult'", "matrix multiplication operator"),
    (r"for //:|'FloorDiv'", "floor division operator"),
    (r"expected (?:a )?.;.", "missing semicolon"),
    (r"expected (?:a )?.}.", "unbalanced braces"),
)
# g++ quotes names with ‘’ (UTF-8 locale) or '' (C locale): patterns match either with `.`.
_PATTERNS = tuple((re.compile(p), words) for p, words in (*_EQUIVALENTS, *_SYMBOL_NAMES))


def other_wording(message: str) -> str:
    """The other compiler's words for the errors `message` states, and the names of operators
    it shows only as symbols ("" when nothing is known)."""
    return " ".join(words for pattern, words in _PATTERNS if pattern.search(message))
