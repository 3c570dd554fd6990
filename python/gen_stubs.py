# SPDX-License-Identifier: BSD-3-Clause
"""Writes the type stubs of q7pred (q7pred/__init__.pyi, q7pred/vec.pyi)
from the built package: every leaf ufunc and vector ufunc with its operands'
names (the shape table's, the C parameters'), its result dtype and its
docstring, from the extension's tables; the Python classes and functions
from their own annotations and signatures. setup.py runs it after building
the extension.

usage: gen_stubs.py PACKAGE_DIR     (the built q7pred directory)
"""
import importlib
import inspect
import sys
from pathlib import Path

HEADER = ("# Generated from q7pred's tables by python/gen_stubs.py when the package is built.\n"
          "from typing import Any, Dict, List, NamedTuple, Optional, Protocol, Tuple, Union\n\n"
          "import numpy as np\nfrom numpy.typing import ArrayLike, NDArray\n")

UFUNC_BASE = '''
class _UFunc(Protocol):
    """What every q7pred ufunc has besides its call: numpy's ufunc attributes."""
    @property
    def __name__(self) -> str: ...
    @property
    def nin(self) -> int: ...
    @property
    def nout(self) -> int: ...
    @property
    def nargs(self) -> int: ...
    @property
    def ntypes(self) -> int: ...
    @property
    def types(self) -> List[str]: ...
    @property
    def signature(self) -> Optional[str]: ...
    def outer(self, *args: Any, **kwargs: Any) -> Any: ...
    def at(self, *args: Any, **kwargs: Any) -> None: ...
    # The folds: numpy's for the associative ufuncs (the leaves andb_64_64_64,
    # orb_64_64_64, xorb_64_64_64 and the vector andb, orb, xorb) on uint64
    # arrays, with identity all ones, 0, 0; TypeError for every other ufunc,
    # whose identity is None.
    @property
    def identity(self) -> Optional[np.uint64]: ...
    def reduce(self, array: ArrayLike, axis: Union[None, int, Tuple[int, ...]] = ..., dtype: Any = ...,
               out: Any = ..., keepdims: bool = ..., initial: Any = ..., where: ArrayLike = ...) -> Any: ...
    def accumulate(self, array: ArrayLike, axis: int = ..., dtype: Any = ..., out: Any = ...) -> NDArray[np.uint64]: ...
    def reduceat(self, array: ArrayLike, indices: ArrayLike, axis: int = ..., dtype: Any = ...,
                 out: Any = ...) -> NDArray[np.uint64]: ...
'''

# The one class the extension defines (its attributes are set per instance).
PROGRAM_ERROR = '''
class ProgramError(ValueError):
    line: int
    col: int
    message: str
'''


def load(package_dir: Path):
    sys.path.insert(0, str(package_dir.parent))
    try:
        package = importlib.import_module("q7pred")
        importlib.import_module("q7pred.vec")
    finally:
        sys.path.pop(0)
    assert Path(package.__file__).parent.resolve() == package_dir.resolve(), package.__file__
    return package


def text_of(annotation_or_signature) -> str:
    t = annotation_or_signature
    text = "%s.%s" % (t.__module__, t.__name__) if isinstance(t, type) else str(t)
    for module, alias in (("builtins.", ""), ("typing.", ""), ("numpy.", "np."), ("q7pred.vec.", ""), ("q7pred.library.", ""), ("q7pred.", "")):
        text = text.replace(module, alias)
    return text


def class_stub(cls) -> str:
    """A NamedTuple or a plain class: its annotated fields and public methods."""
    named = issubclass(cls, tuple)
    out = ["\nclass %s%s:" % (cls.__name__, "(NamedTuple)" if named else "")]
    out += ["    %s: %s" % (k, text_of(v)) for k, v in cls.__annotations__.items()]
    for name, f in vars(cls).items():
        if callable(f) and not named and (not name.startswith("_") or name == "__getitem__"):
            out.append("    def %s%s: ..." % (name, text_of(inspect.signature(f))))
    return "\n".join(out) + "\n"


def function_stub(f) -> str:
    return "def %s%s: ...\n" % (f.__name__, text_of(inspect.signature(f)))


def result_type(ufunc) -> str:
    import numpy as np
    name = np.dtype(ufunc.types[0].split("->")[1][0]).name
    return "Union[np.%s, NDArray[np.%s]]" % (name, name)


def ufunc_stub(class_name: str, ufunc, inputs) -> str:
    params = ", ".join("%s: ArrayLike" % name for name in inputs)
    doc = (ufunc.__doc__ or "").replace("\\", "\\\\").replace('"""', "'''")
    return ('\nclass %s(_UFunc, Protocol):\n'
            '    def __call__(self, %s, /, out: Any = ..., *, where: ArrayLike = ..., casting: str = ...,\n'
            '                 order: str = ..., subok: bool = ...) -> %s:\n'
            '        """%s"""\n' % (class_name, params, result_type(ufunc), doc.strip()))


# q7pred.load's library: its leaves' ufuncs are the model's, by name
# (__getattr__), its vec the vector ufuncs.
LIBRARY = '''
class LibraryError(RuntimeError): ...

class Library:
    path: str
    isolated: bool
    abi: Optional[str]
    xstate_size: int
    exported: Tuple[str, ...]
    called: Tuple[str, ...]
    vec: Any
    def __getattr__(self, name: str) -> _UFunc: ...
    def run(self, text: Union[str, bytes]) -> State: ...
    def close(self) -> None: ...
    def __enter__(self) -> "Library": ...
    def __exit__(self, *exc: Any) -> None: ...
'''


def package_stub(q7) -> str:
    out = [HEADER, "\nfrom . import vec as vec\n\n__version__: str\n", PROGRAM_ERROR]
    out += [class_stub(c) for c in (q7.Operand, q7.Leaf, q7.State)]
    out += ["\n", function_stub(q7.leaves), function_stub(q7.run), UFUNC_BASE, LIBRARY, "\n",
            function_stub(q7.load)]
    for leaf in q7.leaves():
        inputs = [o.name for o in leaf.operands if o.dir == "in"]
        out.append(ufunc_stub("_Leaf_" + leaf.suffix, getattr(q7, leaf.suffix), inputs))
        out.append("%s: _Leaf_%s\n" % (leaf.suffix, leaf.suffix))
    return "".join(out)


def vec_stub(vec) -> str:
    out = [HEADER] + [class_stub(c) for c in (vec.LaneFormat, vec.Instruction)]
    out += ["\nFORMATS: Dict[str, LaneFormat]\n"]
    out += [function_stub(f) for f in (vec.instructions, vec.unpack_fields, vec.pack_fields, vec.from_bytes,
                                       vec.to_bytes)]
    out.append(UFUNC_BASE)
    for ins in vec.instructions():
        out.append(ufunc_stub("_Vec_" + ins.mnemonic, getattr(vec, ins.mnemonic), ins.inputs))
        out.append("%s: _Vec_%s\n" % (ins.mnemonic, ins.mnemonic))
    return "".join(out)


def write(package_dir: Path):
    q7 = load(package_dir)
    (package_dir / "__init__.pyi").write_text(package_stub(q7))
    (package_dir / "vec.pyi").write_text(vec_stub(q7.vec))


if __name__ == "__main__":
    write(Path(sys.argv[1]))
