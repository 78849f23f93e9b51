"""first_difference: translations may change comments and string contents, nothing else."""

from __future__ import annotations

import pytest

from jaxko.codetokens import first_difference

SOURCE = '''\
import jax.numpy as jnp

def norm(x):
  # Normalise the rows.
  x = x - x.mean(0)
  return x / x.std(0)  # divide by the spread

print("result:", norm(jnp.ones(3)))
'''

# (name, source, translation, language): the translation must pass.
SAME = [
    ("identical", SOURCE, SOURCE, "python"),
    ("comment translated", SOURCE, SOURCE.replace("# Normalise the rows.", "# 행을 정규화합니다."), "python"),
    ("trailing comment translated", SOURCE,
     SOURCE.replace("# divide by the spread", "# 표준편차로 나눕니다"), "python"),
    ("string translated", SOURCE, SOURCE.replace('"result:"', '"결과:"'), "python"),
    ("comment split over two lines", SOURCE,
     SOURCE.replace("  # Normalise the rows.\n", "  # 행을\n  # 정규화합니다.\n"), "python"),
    ("comment added", "x = 1\n", "# 설명\nx = 1\n", "python"),
    ("docstring translated", 'def f():\n  """Add one."""\n  return 1\n',
     'def f():\n  """1을 더합니다.\n\n  자세히.\n  """\n  return 1\n', "python"),
    ("f-string text translated, fields kept", 'print(f"x is {x!r:>{w}} ({{raw}})")',
     'print(f"x는 {x!r:>{w}} ({{날것}}) 입니다")', "python"),
    ("spacing inside a line", "y = f(x, 1)", "y = f( x , 1 )", "ipython3"),
    ("spacing around a stray character", "x = a ? b", "x = a?b", "python"),
    ("multi-line f-string text translated", "s = f'''a\n{b}\nc'''\n", "s = f'''가\n{b}\n다'''\n",
     "python"),
    ("shell line kept, comment translated", "!pip install jax  \n# install\nimport jax",
     "!pip install jax\n# 설치\nimport jax", "ipython3"),
    ("line magic kept", "%matplotlib inline\nimport numpy as np", "%matplotlib inline\nimport numpy as np",
     "python"),
    ("percent in a docstring is no magic", 'x = """\n%d items\n"""', 'x = """\n%d 개\n"""', "python"),
    ("cell magic with Python body", "%%time\n# run\nf(x)", "%%time\n# 실행\nf(x)", "python"),
    ("bash cell magic, comment translated", "%%bash\n# list\nls -l", "%%bash\n# 목록\nls -l", "python"),
    ("not Python: comment lines may differ", "for x in xs:\n  ... # TODO\n  >>> weird (",
     "for x in xs:\n  ... # TODO\n  >>> weird (", "python"),
    ("pseudo-code with a translated comment line", "def f(x):\n# body\n  return (",
     "def f(x):\n# 본문\n  return (", "python"),
    ("pseudo-code: trailing comment translated", "devices = jax.devices()  # 8 devices\ny = f(x))\n",
     "devices = jax.devices()  # 장치 8개\ny = f(x))\n", "python"),
    ("C++ comment line translated", "#include <cstdint>\n// Add one.\nint f(int x) { return x + 1; }",
     "#include <cstdint>\n// 1을 더합니다.\nint f(int x) { return x + 1; }", "c++"),
    ("shell comment translated", "# install\npip install jax", "# 설치\npip install jax", "bash"),
    ("shell trailing comment translated", "pip install -e .  # installs jax\ncd docs",
     "pip install -e .  # jax를 설치합니다\ncd docs", "bash"),
    ("shell trailing comment after quotes", "echo 'a # b' \"c\" # note", "echo 'a # b' \"c\" # 참고", "sh"),
    ("SQL comment translated", "-- rows\nSELECT 1;", "-- 행\nSELECT 1;", "sql"),
    ("unknown language, # comment", "# note\nrun x", "# 참고\nrun x", "somelang"),
]

# (name, source, translation, language, expected description).
DIFFERENT = [
    ("identifier translated", SOURCE, SOURCE.replace("x = x - x.mean(0)", "x = 엑스 - x.mean(0)"),
     "python", "line 5: 'x' became '엑스'"),
    ("attribute changed", SOURCE, SOURCE.replace("x.std(0)", "x.var(0)"), "python",
     "line 6: 'std' became 'var'"),
    ("number changed", "y = 10", "y = 100", "python", "line 1: '10' became '100'"),
    ("line dropped", "a = 1\nb = 2\n", "a = 1\n", "python", "line 2: 'b' is missing"),
    ("line added", "a = 1\n", "a = 1\nb = 2\n", "python", "line 2 of the translation: 'b' was added"),
    ("quote style changed", "s = 'a'", 's = "a"', "python", "line 1: \"'…'\" became '\"…\"'"),
    ("string prefix lost", "s = r'\\d'", "s = '\\d'", "python", "line 1: \"r'…'\" became \"'…'\""),
    ("f-string field translated", 'print(f"x is {x}")', 'print(f"x는 {엑스}")', "python",
     "line 1: 'f\"…{x}…\"' became 'f\"…{엑스}…\"'"),
    ("f-string field dropped", 'print(f"{a} and {b}")', 'print(f"{a} 그리고")', "python",
     "line 1: 'f\"…{a}…\"' became 'f\"…{a}…\"'"),
    ("apostrophe breaks the string", "print('dont')", "print('don't')", "python",
     "line 1 of the translation: no longer valid Python (unterminated string literal)"),
    ("stray character changed", "x = a ? b", "x = a $ b", "python", "line 1: '?' became '$'"),
    ("field of a nested f-string translated", "print(f\"{f'{x}'}\")", "print(f\"{f'{엑스}'}\")",
     "python", "line 1: 'f\"…{f\\'{x}\\'}…\"' became 'f\"…{f\\'{엑스}\\'}…\"'"),
    ("field of a multi-line f-string translated", "s = f'''a\n{b}\nc'''\n",
     "s = f'''가\n{나}\nc'''\n", "python", "line 1: \"f'''…{b}…'''\" became \"f'''…{나}…'''\""),
    ("indentation changed", "if x:\n  y = 1\n", "if x:\n    y = 1\n", "python",
     "line 2: 'indentation' became 'indentation'"),
    ("shell line changed", "!cmake --build build", "!cmake --build 빌드", "ipython3",
     "line 1: '!cmake --build build' became '!cmake --build 빌드'"),
    ("magic line translated", "%timeit f(x)\n", "%시간 f(x)\n", "python",
     "line 1: '%timeit f(x)' became '%시간 f(x)'"),
    ("cell magic changed", "%%time\nf(x)", "%%timeit\nf(x)", "python",
     "line 1: '%%time' became '%%timeit'"),
    ("Python body of a cell magic", "%%time\ny = f(x)", "%%time\ny = g(x)", "python",
     "line 2: 'f' became 'g'"),
    ("bash body changed", "%%bash\n# list\nls -l", "%%bash\n# 목록\nls -a", "python",
     "line 3: 'ls -l' became 'ls -a'"),
    ("unterminated triple-quoted string", 'x = """a"""\n', 'x = """a""\n', "python",
     "line 1 of the translation: no longer valid Python (EOF in multi-line string)"),
    ("pseudo-code line changed", "def f(x):\n  return (", "def f(y):\n  return (", "python",
     "line 1: 'def f(x):' became 'def f(y):'"),
    ("pseudo-code: code before a trailing comment changed", "x = f(a)  # note\ny = (",
     "x = f(b)  # 메모\ny = (", "python", "line 1: 'x = f(a)  # note' became 'x = f(b)  # 메모'"),
    ("pseudo-code: string on a commented line stays exact", "print('hi')  # say\ny = (",
     "print('안녕')  # 말하기\ny = (", "python",
     "line 1: \"print('hi')  # say\" became \"print('안녕')  # 말하기\""),
    ("pseudo-code: indentation of a commented line", "  x = 1  # a\ny = (", "    x = 1  # 가\ny = (",
     "python", "line 1: 'x = 1  # a' became 'x = 1  # 가'"),
    ("C++ #include is code, not a comment", "#include <cstdint>\nint x;", "#include <한글>\nint x;",
     "cpp", "line 1: '#include <cstdint>' became '#include <한글>'"),
    ("C++ trailing comment on a code line", "int x;  // count", "int x;  // 개수", "cpp",
     "line 1: 'int x;  // count' became 'int x;  // 개수'"),
    ("shell command changed", "pip install jax", "pip install jaxlib", "bash",
     "line 1: 'pip install jax' became 'pip install jaxlib'"),
    ("shell command before a trailing comment changed", "pip install jax  # installs jax",
     "pip install jaxlib  # jax를 설치합니다", "bash",
     "line 1: 'pip install jax  # installs jax' became 'pip install jaxlib  # jax를 설치합니다'"),
    ("shell # inside quotes is code", "echo \"a # b\"", "echo \"a # 나\"", "bash",
     "line 1: 'echo \"a # b\"' became 'echo \"a # 나\"'"),
    ("shell # inside a word is code", "echo $# a#b", "echo $# a#나", "bash",
     "line 1: 'echo $# a#b' became 'echo $# a#나'"),
    ("shell # after an escaped blank is code", "echo a\\ # b", "echo a\\ # 나", "zsh",
     "line 1: 'echo a\\\\ # b' became 'echo a\\\\ # 나'"),
    ("trailing # in a non-shell language is code", "set x 1 # one", "set x 1 # 하나", "tcl",
     "line 1: 'set x 1 # one' became 'set x 1 # 하나'"),
]


@pytest.mark.parametrize("name,source,translated,language", SAME, ids=[c[0] for c in SAME])
def test_same_code(name, source, translated, language):
    assert first_difference(source, translated, language) is None


@pytest.mark.parametrize("name,source,translated,language,expected", DIFFERENT,
                         ids=[c[0] for c in DIFFERENT])
def test_first_difference_named(name, source, translated, language, expected):
    assert first_difference(source, translated, language) == expected


def test_description_is_one_line():
    found = first_difference("x = 1\n", "x = '''\n\n" + "긴 " * 50 + "\n'''\n")
    assert found is not None and "\n" not in found and len(found) < 200
