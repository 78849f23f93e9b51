"""The native kernel of `jaxko check`: its reader and screen (tools/jaxko/check/_kernel.pyx).

Everything else is in pyproject.toml. The extension is optional: without a C compiler
the package installs all the same, and `jaxko check` runs every rule on every message
(the same findings, several times slower; see jaxko/check/screen.py).
"""

from Cython.Build import cythonize
from setuptools import Extension, setup

setup(ext_modules=cythonize(
    [Extension("jaxko.check._kernel", ["tools/jaxko/check/_kernel.pyx"], optional=True)],
    compiler_directives={"language_level": 3}, quiet=True))
