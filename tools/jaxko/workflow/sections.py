"""Which part of the docs a document belongs to, for progress by section.

An explicit map, not a toctree walk at run time: ``jaxko stats`` then works from a
fresh clone (no staged upstream) and gives the same answer everywhere. The map follows
upstream's toctrees (``index.rst``, ``jax-101.rst``, ``advanced_guides.rst``, ...);
``tests/test_workflow_sections.py`` walks the pinned upstream's toctrees and fails when
upstream moves a page to another part, so the map cannot drift silently.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Section:
    """A part of the docs: a stable key, its English and Korean titles, its documents."""

    key: str
    title: str
    title_ko: str
    documents: tuple[str, ...] = ()   # docnames, e.g. "notebooks/thinking_in_jax"
    prefixes: tuple[str, ...] = ()    # folders, e.g. "jep/"

    def contains(self, docname: str) -> bool:
        return docname in self.documents or docname.startswith(self.prefixes)


# Order is the order of the site's navigation; the first section that claims a document
# wins (so "notebooks/" only collects notebooks no other section lists).
SECTIONS: tuple[Section, ...] = (
    Section("getting-started", "Getting started", "시작하기", documents=(
        "index", "installation", "notebooks/thinking_in_jax",
        "notebooks/Common_Gotchas_in_JAX", "key-concepts", "glossary",
    )),
    Section("jax-101", "JAX 101", "JAX 101", documents=(
        "jax-101", "jit-compilation", "automatic-vectorization", "automatic-differentiation",
        "pytrees", "random-numbers", "parallel", "control-flow", "tracing",
        "stateful-computations",
    )),
    Section("advanced-guides", "Advanced guides", "고급 가이드", documents=(
        "advanced_guides",
        # Parallel computation
        "notebooks/shard_map", "notebooks/layout", "notebooks/host-offloading",
        "multi_process", "fault_tolerance", "distributed_data_loading",
        "notebooks/colocated-python",
        # Machine learning
        "the-training-cookbook",
        # Automatic differentiation (advanced_autodiff lists the next four)
        "notebooks/autodiff_cookbook", "notebooks/autodiff_remat", "advanced_autodiff",
        "higher-order", "jacobian-vector-products", "complex-differentiation",
        "notebooks/Custom_derivative_rules_for_Python_code",
        # Errors and debugging
        "errors", "debugging", "transfer_guard",
        # Pytrees, performance, profiling
        "custom_pytrees", "persistent_compilation_cache", "buffer_donation",
        "gpu_performance_tips", "benchmarking", "profiling", "device_memory_profiling",
        # Non-functional programming, callbacks, FFI
        "array_refs", "external-callbacks", "ffi", "notebooks/cute_dsl_jax",
        # Modeling workflows
        "gradient-checkpointing", "aot",
        # Example applications
        "notebooks/neural_network_with_tfds_data", "notebooks/Neural_Network_and_Data_Loading",
        "notebooks/vmapped_log_probs",
        # Deep dives
        "notebooks/convolutions", "xla_flags", "jax-primitives", "jaxpr",
    ), prefixes=("debugging/", "export/")),
    Section("jep", "JEPs", "JEP(JAX 개선 제안)", prefixes=("jep/",)),
    Section("pallas", "Pallas", "Pallas", prefixes=("pallas/",)),
    Section("extensions-notes", "Extensions, notes and migration guides",
            "확장, 참고 사항, 마이그레이션 가이드", documents=(
                "extensions", "notebooks/Writing_custom_interpreters_in_Jax", "building_on_jax",
                "notes", "api_compatibility", "deprecation", "async_dispatch", "concurrency",
                "gpu_memory_allocation", "rank_promotion_warning", "type_promotion",
                "default_dtypes",
                # orphan pages reached from notes and the changelog
                "migrate_pmap", "jax_array_migration", "direct_linearize_migration",
                "shardy_jax_migration",
            )),
    Section("contributor", "Contributor guide and internals", "기여 가이드와 내부 구조",
            documents=("contributor_guide", "contributing", "developer",
                       "investigating_a_regression", "autodidax", "autodidax2_part1"),
            prefixes=("internals/",)),
    Section("tutorials", "Tutorials (unpublished _tutorials)", "튜토리얼(미공개 _tutorials)",
            prefixes=("_tutorials/",)),
    Section("notebooks", "Other notebooks", "기타 노트북", prefixes=("notebooks/",)),
    Section("about", "About, FAQ, configuration and changelog", "소개, FAQ, 설정, 변경 내역",
            documents=("about", "faq", "config_options", "changelog", "beginner_guide")),
)

OTHER = Section("other", "Other", "기타")

_BY_KEY = {section.key: section for section in (*SECTIONS, OTHER)}


def section_of(docname: str) -> Section:
    """The section a document (docname without suffix) belongs to; ``OTHER`` if none."""
    for section in SECTIONS:
        if section.contains(docname):
            return section
    return OTHER


def all_sections() -> tuple[Section, ...]:
    """Every section in display order, ``OTHER`` last."""
    return (*SECTIONS, OTHER)


def find_section(name: str) -> Section | None:
    """A section by key or title (English or Korean), case-insensitive."""
    wanted = name.strip().casefold()
    for section in all_sections():
        if wanted in (section.key, section.title.casefold(), section.title_ko.casefold()):
            return section
    return None


def order_of(section: Section) -> int:
    return list(_BY_KEY).index(section.key)
