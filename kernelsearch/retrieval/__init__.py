"""Documentation retrieval: a BM25 index over our docs and the user's, and queries built from
what failed (compiler errors, runtime errors, mismatches, bottlenecks)."""

from kernelsearch.retrieval.api_catalog import ApiFact
from kernelsearch.retrieval.api_facts import ApiFactsIndex, api_facts_for, api_section
from kernelsearch.retrieval.corpus import DocSection, slugify
from kernelsearch.retrieval.index import (
    DEFAULT_MAX_CHARS,
    DEFAULT_TOP_K,
    DocsIndex,
    Retriever,
    cap_sections,
    fts_query,
)
from kernelsearch.retrieval.parsers import ErrorLine, ErrorParser, parse_errors, parsers_for
from kernelsearch.retrieval.query import bottleneck_query, query_for, query_from_log
from kernelsearch.retrieval.user_docs import add_documents

__all__ = [
    "ApiFact",
    "ApiFactsIndex",
    "DEFAULT_MAX_CHARS",
    "DEFAULT_TOP_K",
    "DocSection",
    "DocsIndex",
    "ErrorLine",
    "ErrorParser",
    "Retriever",
    "add_documents",
    "api_facts_for",
    "api_section",
    "bottleneck_query",
    "cap_sections",
    "fts_query",
    "parse_errors",
    "parsers_for",
    "query_for",
    "query_from_log",
    "slugify",
]
