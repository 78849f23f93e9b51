"""jaxko: the pipeline and tools of the Korean translation of the JAX docs."""

__version__ = "0.1.0"
